import type { EngineConfig } from "../../core/config.js";
import { HindsightError } from "../../core/errors.js";
import type { CallOptions, MemoryApi } from "../../core/memoryApi.js";
import type { ForgetInput, IngestInput, ListInput, RecallInput, SummarizeInput, WriteInput } from "../../core/model/inputs.js";
import { ScopeSchema } from "../../core/model/memory.js";
import type { ProposalStatus } from "../../core/model/proposal.js";
import type { EditPatch } from "../../core/ops/edit.js";
import type { ImportProgress } from "../../core/ops/jsonl.js";
import type { ConflictKeep } from "../../core/ops/resolveConflict.js";
import type { IdKind } from "../../core/ops/shortIds.js";
import type { Embedder } from "../../core/ports.js";
import { ALL_PROJECTS, describeProjects, isFullGrant, mayUse, type Grant, type Permission } from "./grant.js";

function deny(code: "PROJECT_FORBIDDEN" | "PERMISSION_DENIED", message: string): HindsightError {
  return new HindsightError(code, message);
}

/**
 * The scope a call runs in: a named scope must be one the token may use; a left-out scope is the
 * token's only project, else the server's default when the token may use it, else the caller must name one.
 * A malformed scope is passed on for the engine to refuse with the field named.
 */
export function resolveScope(grant: Grant, serverDefault: string, scope: unknown): string | undefined {
  if (grant.projects === ALL_PROJECTS) return scope as string | undefined;
  if (scope !== undefined) {
    if (typeof scope !== "string" || !ScopeSchema.safeParse(scope).success) return scope as string;
    if (!mayUse(grant, scope)) throw deny("PROJECT_FORBIDDEN", `token ${grant.id} may not use ${scope} (it may use ${describeProjects(grant)})`);
    return scope;
  }
  const only = grant.projects.size === 1 ? [...grant.projects][0] : undefined;
  if (only !== undefined) return only;
  if (grant.projects.has(serverDefault)) return serverDefault;
  throw new HindsightError("INVALID_INPUT", `scope: required, since token ${grant.id} may use several projects (${describeProjects(grant)})`, { field: "scope" });
}

/** The default scope a token sees (the profile resource list, the use_memory prompt): as resolveScope, else its first project. */
export function defaultScopeFor(grant: Grant, serverDefault: string): string {
  if (grant.projects === ALL_PROJECTS) return serverDefault;
  if (grant.projects.size === 1) return [...grant.projects][0] as string;
  if (grant.projects.has(serverDefault)) return serverDefault;
  return [...grant.projects].sort()[0] ?? serverDefault;
}

/**
 * The memory as a token with less than a full grant may use it, for REST and MCP alike. Each method
 * checks the token's permission for that call and the project it touches — a named scope, the scope
 * of a memory or proposal given by id, or the token's default when the scope is left out — then calls
 * the engine's view audited as the token. It implements MemoryApi, so a method added there does not
 * compile until it is decided here what that method needs.
 */
export class ScopedMemoryApi implements MemoryApi {
  private readonly inner: MemoryApi;

  /** `engine`: the unscoped memory (for looking up the scope of a memory or proposal), its default scope the server's. */
  constructor(
    private readonly engine: MemoryApi,
    private readonly grant: Grant,
    private readonly actor: string,
  ) {
    this.inner = engine.actingAs(actor);
  }

  get config(): EngineConfig {
    const config = this.inner.config;
    return { ...config, defaultScope: defaultScopeFor(this.grant, config.defaultScope) };
  }

  actingAs(actor: string): MemoryApi {
    return new ScopedMemoryApi(this.engine, this.grant, actor);
  }

  /** An MCP session's scope (its client's roots or configured scope) chooses among the token's projects, never beyond them. */
  withDefaultScope(scope: string): MemoryApi {
    const narrowed = this.engine.withDefaultScope(scope);
    if (!mayUse(this.grant, scope)) throw deny("PROJECT_FORBIDDEN", `token ${this.grant.id} may not use ${scope} (it may use ${describeProjects(this.grant)})`);
    return new ScopedMemoryApi(narrowed, this.grant, this.actor);
  }

  // ---- read ----

  async recall(input: RecallInput) {
    this.need("read");
    return this.inner.recall(this.withScope(input));
  }

  async list(input: ListInput = {}) {
    this.need("read");
    return this.inner.list(this.withScope(input));
  }

  async listPage(input: ListInput = {}) {
    this.need("read");
    return this.inner.listPage(this.withScope(input));
  }

  async memoryGroups(input: ListInput = {}) {
    this.need("read");
    return this.inner.memoryGroups(this.withScope(input));
  }

  async count(scope?: string) {
    this.need("read");
    return this.inner.count(this.scope(scope));
  }

  async get(id: string) {
    this.need("read");
    await this.checkMemory(id);
    return this.inner.get(id);
  }

  async explain(id: string) {
    this.need("read");
    await this.checkMemory(id);
    return this.inner.explain(id);
  }

  async conflicts(scope?: string) {
    this.need("read");
    return this.inner.conflicts(this.scope(scope));
  }

  async stats(scope?: string) {
    this.need("read");
    return this.inner.stats(this.scope(scope));
  }

  async exportJsonl(scope?: string) {
    this.need("read");
    return this.inner.exportJsonl(this.scope(scope));
  }

  async listProposals(options: { scope?: string; statuses?: ProposalStatus[] } = {}) {
    this.need("read");
    return this.inner.listProposals(this.withScope(options));
  }

  async listProposalsWithSources(options: { scope?: string; statuses?: ProposalStatus[] } = {}) {
    this.need("read");
    return this.inner.listProposalsWithSources(this.withScope(options));
  }

  async resolveIds(inputs: string[], options: { scope?: string; kind?: IdKind; field?: string } = {}) {
    this.need("read");
    return this.inner.resolveIds(inputs, this.withScope(options));
  }

  async summarize(input: SummarizeInput, options?: CallOptions) {
    this.need("read");
    if (isObject(input) && input.propose === true) this.need("write");
    return this.inner.summarize(this.withScope(input), options);
  }

  // ---- write ----

  async write(input: WriteInput, options?: CallOptions) {
    this.need("write");
    return this.inner.write(this.withScope(input), options);
  }

  async ingest(input: IngestInput, options?: CallOptions) {
    this.need("write");
    return this.inner.ingest(this.withScope(input), options);
  }

  async forget(input: ForgetInput, options?: CallOptions) {
    this.need("write");
    if (isObject(input)) {
      const ids: unknown[] = [input.id, ...(Array.isArray(input.ids) ? input.ids : [])];
      for (const id of ids) await this.checkMemory(id);
    }
    return this.inner.forget(this.withScope(input), options);
  }

  async edit(id: string, patch: EditPatch, options?: CallOptions) {
    this.need("write");
    await this.checkMemory(id);
    return this.inner.edit(id, patch, options);
  }

  async pin(id: string, pinned: boolean, options?: CallOptions) {
    this.need("write");
    await this.checkMemory(id);
    return this.inner.pin(id, pinned, options);
  }

  async resolveConflict(a: string, b: string, keep: ConflictKeep, options?: CallOptions) {
    this.need("write");
    await this.checkMemory(a);
    await this.checkMemory(b);
    return this.inner.resolveConflict(a, b, keep, options);
  }

  async proposeCompressions(scope?: string, options?: CallOptions) {
    this.need("write");
    return this.inner.proposeCompressions(this.scope(scope), options);
  }

  // ---- admin ----

  async approveProposal(id: string, options?: CallOptions) {
    this.need("admin");
    await this.checkProposal(id);
    return this.inner.approveProposal(id, options);
  }

  async rejectProposal(id: string, options?: CallOptions) {
    this.need("admin");
    await this.checkProposal(id);
    return this.inner.rejectProposal(id, options);
  }

  async rollbackProposal(id: string, options?: CallOptions) {
    this.need("admin");
    await this.checkProposal(id);
    return this.inner.rollbackProposal(id, options);
  }

  async listQuarantined(scope?: string) {
    this.need("admin");
    return this.inner.listQuarantined(this.scope(scope));
  }

  async releaseQuarantined(id: string, options?: CallOptions) {
    this.need("admin");
    await this.checkMemory(id);
    return this.inner.releaseQuarantined(id, options);
  }

  async deleteQuarantined(id: string, options?: CallOptions) {
    this.need("admin");
    await this.checkMemory(id);
    return this.inner.deleteQuarantined(id, options);
  }

  async auditLog(options: { scope?: string; limit?: number; offset?: number } = {}) {
    this.need("admin");
    return this.inner.auditLog(this.withScope(options));
  }

  async importJsonl(text: string, scope?: string, options?: CallOptions & { onProgress?: ImportProgress }) {
    this.need("admin");
    return this.inner.importJsonl(text, this.scope(scope), options);
  }

  async importMemories(inputs: WriteInput[], options?: CallOptions) {
    this.need("admin");
    return this.inner.importMemories(Array.isArray(inputs) ? inputs.map((i) => this.withScope(i)) : inputs, options);
  }

  /** POST /eval runs cases on scratch stores with the served model: no project is touched, CPU is. */
  embedderForEval(): Embedder {
    this.need("admin");
    return this.inner.embedderForEval();
  }

  // ---- checks ----

  private need(permission: Permission): void {
    if (!this.grant.permissions.has(permission)) {
      throw deny("PERMISSION_DENIED", `token ${this.grant.id} lacks the ${permission} permission this call needs (it has ${[...this.grant.permissions].join(", ") || "none"})`);
    }
  }

  private scope(scope: string | undefined): string | undefined {
    return resolveScope(this.grant, this.engine.config.defaultScope, scope);
  }

  /** An input object with its scope resolved (non-objects go on unchanged: the engine refuses them with the field named). */
  private withScope<T>(input: T): T {
    if (!isObject(input)) return input;
    const scope = this.scope(input.scope as string | undefined);
    return scope === undefined ? input : { ...input, scope };
  }

  /** A memory named by id must live in a project the token may use; an unknown id is left for the engine to report. */
  private async checkMemory(id: unknown): Promise<void> {
    if (this.grant.projects === ALL_PROJECTS || typeof id !== "string" || id === "") return;
    let scope: string;
    try {
      scope = (await this.engine.get(id)).scope;
    } catch (err) {
      if (HindsightError.is(err, "NOT_FOUND")) return;
      throw err;
    }
    if (!mayUse(this.grant, scope)) throw deny("PROJECT_FORBIDDEN", `memory ${id} is in a project token ${this.grant.id} may not use (it may use ${describeProjects(this.grant)})`);
  }

  /**
   * A proposal named by id must be in one of the token's projects. Proposals are listed per scope
   * only, so one outside them (or unknown) is refused alike, which also tells a token nothing about other projects.
   */
  private async checkProposal(id: unknown): Promise<void> {
    if (this.grant.projects === ALL_PROJECTS || typeof id !== "string") return;
    for (const scope of this.grant.projects) {
      if ((await this.engine.listProposals({ scope })).some((p) => p.id === id)) return;
    }
    throw deny("PROJECT_FORBIDDEN", `proposal ${id} is not in a project token ${this.grant.id} may use (${describeProjects(this.grant)})`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * The memory as `grant` may use it. Mutations are audited as `token:<id>`. A full grant gets the
 * engine's own actingAs view (no checks to make); anything else a ScopedMemoryApi.
 */
export function scopedApi(engine: MemoryApi, grant: Grant, actor = `token:${grant.id}`): MemoryApi {
  return isFullGrant(grant) ? engine.actingAs(actor) : new ScopedMemoryApi(engine, grant, actor);
}
