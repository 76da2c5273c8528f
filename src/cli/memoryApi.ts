import { HindsightError } from "../core/errors.js";
import type { MemoryEngine, MemoryExplanation } from "../core/engine.js";
import type { EditPatch, EditResult } from "../core/ops/edit.js";
import type { ForgetInput, IngestInput, ListInput, RecallInput, SummarizeInput, WriteInput } from "../core/model/inputs.js";
import type { IdKind } from "../core/ops/shortIds.js";
import type { MemoryRecord } from "../core/model/memory.js";
import type { CompressionProposal, ProposalStatus } from "../core/model/proposal.js";
import { fromWire, toWire } from "../core/wire.js";
import type { OwnerEndpoint } from "../server/owner.js";

type Result<K extends keyof MemoryEngine> = MemoryEngine[K] extends (...args: never[]) => Promise<infer R> ? R : never;

/**
 * What the memory commands of the CLI do, in one project scope: against the store's owner over
 * loopback (the usual case) or, with --no-daemon, against an engine this process opened alone.
 */
export interface CliMemory {
  write(input: WriteInput): Promise<Result<"write">>;
  ingest(input: IngestInput): Promise<Result<"ingest">>;
  get(id: string): Promise<MemoryRecord>;
  /** A memory with its source turns and the memories it links to (all of its own scope). */
  explain(id: string): Promise<MemoryExplanation>;
  edit(id: string, patch: EditPatch): Promise<EditResult>;
  /** Full ids for the ids or prefixes a person typed, in the command's scope; errors name `field` (the flag). */
  resolveIds(ids: string[], kind: IdKind, field: string): Promise<string[]>;
  recall(input: RecallInput): Promise<Result<"recall">>;
  forget(input: ForgetInput): Promise<Result<"forget">>;
  list(input: ListInput): Promise<MemoryRecord[]>;
  summarize(input: SummarizeInput): Promise<Result<"summarize">>;
  listProposals(statuses?: ProposalStatus[]): Promise<CompressionProposal[]>;
  proposeCompressions(): Promise<CompressionProposal[]>;
  decideProposal(id: string, action: "approve" | "reject" | "rollback"): Promise<CompressionProposal>;
  exportJsonl(): Promise<string>;
  /** `scope`: move every record into it (import's --scope); progress only where the import runs in this process. */
  importJsonl(text: string, scope: string | undefined, onProgress?: (done: number, total: number) => void): Promise<Result<"importJsonl">>;
}

/** The engine of this process (--no-daemon), its default scope being the command's. */
export function localMemory(engine: MemoryEngine): CliMemory {
  return {
    write: (input) => engine.write(input),
    ingest: (input) => engine.ingest(input),
    get: (id) => engine.get(id),
    explain: (id) => engine.explain(id),
    edit: (id, patch) => engine.edit(id, patch),
    resolveIds: (ids, kind, field) => engine.resolveIds(ids, { kind, field }),
    recall: (input) => engine.recall(input),
    forget: (input) => engine.forget(input),
    list: (input) => engine.list(input),
    summarize: (input) => engine.summarize(input),
    listProposals: (statuses) => engine.listProposals(statuses ? { statuses } : {}),
    proposeCompressions: () => engine.proposeCompressions(),
    decideProposal: (id, action) => (action === "approve" ? engine.approveProposal(id) : action === "reject" ? engine.rejectProposal(id) : engine.rollbackProposal(id)),
    exportJsonl: () => engine.exportJsonl(),
    importJsonl: (text, scope, onProgress) => engine.importJsonl(text, scope, onProgress ? { onProgress } : {}),
  };
}

/** The owner's REST API (/api/v1) with its token; every call names the command's scope. */
export function ownerMemory(endpoint: OwnerEndpoint, scope: string): CliMemory {
  const call = async <T>(method: string, path: string, body?: unknown, raw?: string): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${endpoint.url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${endpoint.token}`, ...(body !== undefined ? { "content-type": "application/json" } : raw !== undefined ? { "content-type": "application/x-ndjson" } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(toWire(body)) } : raw !== undefined ? { body: raw } : {}),
      });
    } catch (err) {
      throw new HindsightError("STORE_ERROR", `the store's owner at ${endpoint.url} (pid ${endpoint.owner.pid}) did not answer: ${(err as Error).message}`, { cause: err });
    }
    const text = await res.text();
    if (!res.ok) throw remoteError(res.status, text);
    // An export is application/x-ndjson: text to pass on, not one JSON document.
    if (!/^application\/json\b/.test(res.headers.get("content-type") ?? "")) return text as T;
    const read = fromWire(JSON.parse(text));
    return ("value" in read ? read.value : {}) as T;
  };
  const q = (params: Record<string, string | string[] | undefined>): string => {
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const one of v === undefined ? [] : Array.isArray(v) ? v : [v]) search.append(k, one);
    return `?${search.toString()}`;
  };
  return {
    write: (input) => call("POST", "/memories", { ...input, scope: input.scope ?? scope }),
    ingest: (input) => call("POST", "/ingest", { ...input, scope: input.scope ?? scope }),
    get: async (id) => (await call<{ memory: MemoryRecord }>("GET", `/memories/${encodeURIComponent(id)}`)).memory,
    explain: (id) => call("GET", `/memories/${encodeURIComponent(id)}?include=turns,links`),
    edit: (id, patch) => call("PATCH", `/memories/${encodeURIComponent(id)}`, patch),
    resolveIds: async (ids, kind, field) => (await call<{ ids: string[] }>("GET", `/resolve${q({ id: ids, scope, kind, field })}`)).ids,
    recall: (input) => call("POST", "/recall", { ...input, scope: input.scope ?? scope }),
    forget: (input) => call("POST", "/forget", { ...input, scope: input.scope ?? scope }),
    list: async (input) => {
      const r = await call<{ memories: MemoryRecord[] }>(
        "GET",
        `/memories${q({ scope: input.scope ?? scope, type: input.types, status: input.statuses, include_expired: input.includeExpired ? "true" : undefined, limit: "10000" })}`,
      );
      return r.memories;
    },
    summarize: (input) => call("POST", "/summarize", { ...input, scope: input.scope ?? scope }),
    listProposals: async (statuses) => (await call<{ proposals: CompressionProposal[] }>("GET", `/proposals${q({ scope, status: statuses })}`)).proposals,
    proposeCompressions: async () => (await call<{ proposals: CompressionProposal[] }>("POST", "/proposals", { scope })).proposals,
    decideProposal: async (id, action) => (await call<{ proposal: CompressionProposal }>("POST", `/proposals/${encodeURIComponent(id)}/${action}`)).proposal,
    exportJsonl: () => call("GET", `/export${q({ scope })}`),
    importJsonl: (text, target) => call("POST", `/import${q({ scope: target })}`, undefined, text),
  };
}

/** The owner's JSON error as the same HindsightError the engine would have thrown in this process. */
function remoteError(status: number, text: string): HindsightError {
  try {
    const { error } = JSON.parse(text) as { error: { code?: unknown; message?: unknown; field?: unknown } };
    return HindsightError.fromWire(error, { status });
  } catch {
    return new HindsightError("STORE_ERROR", `the store's owner answered ${status}: ${text.slice(0, 200)}`);
  }
}
