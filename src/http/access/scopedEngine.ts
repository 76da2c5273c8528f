import type { MemoryEngine } from "../../core/engine.js";
import { HindsightError } from "../../core/errors.js";
import { ScopeSchema } from "../../core/model/memory.js";
import { HttpError } from "../errors.js";
import { ALL_PROJECTS, describeProjects, isFullGrant, mayUse, type Grant, type Permission } from "./grant.js";

/**
 * Per-token access control over the engine, in one place for REST and MCP alike: every engine call a
 * route or a tool makes goes through this view, which checks the token's permission for that call and
 * the project (scope) it touches — a named scope, the scope of a memory or proposal given by id, or the
 * token's default when the scope is left out. A call that is not listed here is refused: a method added
 * to the engine stays closed to scoped tokens until someone decides what it needs.
 */

interface Access {
  grant: Grant;
  /** The engine itself, for looking up the scope of a memory or proposal. */
  engine: MemoryEngine;
  /** The server's default scope (engine.config.defaultScope). */
  serverDefault: string;
}

type Args = unknown[];
/** Checks a call and returns the arguments to call the engine with (a left-out scope made explicit). */
type Rule = (a: Access, args: Args) => Promise<Args>;

function deny(code: "PROJECT_FORBIDDEN" | "PERMISSION_DENIED", message: string): HttpError {
  return new HttpError(403, code, message);
}

function need(a: Access, permission: Permission): void {
  if (!a.grant.permissions.has(permission)) {
    throw deny("PERMISSION_DENIED", `token ${a.grant.id} lacks the ${permission} permission this call needs (it has ${[...a.grant.permissions].join(", ") || "none"})`);
  }
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
  throw new HttpError(400, "INVALID_INPUT", `scope: required, since token ${grant.id} may use several projects (${describeProjects(grant)})`, { field: "scope" });
}

/** The default scope a token sees (the profile resource list, the use_memory prompt): as resolveScope, else its first project. */
export function defaultScopeFor(grant: Grant, serverDefault: string): string {
  if (grant.projects === ALL_PROJECTS) return serverDefault;
  if (grant.projects.size === 1) return [...grant.projects][0] as string;
  if (grant.projects.has(serverDefault)) return serverDefault;
  return [...grant.projects].sort()[0] ?? serverDefault;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An input object with its scope resolved (non-objects go on unchanged: the engine refuses them). */
function withScope(a: Access, input: unknown): unknown {
  if (!isObject(input)) return input;
  const scope = resolveScope(a.grant, a.serverDefault, input.scope);
  return scope === undefined ? input : { ...input, scope };
}

/** A memory named by id must live in a project the token may use; an unknown id is left for the engine to report. */
async function checkMemory(a: Access, id: unknown): Promise<void> {
  if (a.grant.projects === ALL_PROJECTS || typeof id !== "string" || id === "") return;
  let scope: string;
  try {
    scope = (await a.engine.get(id)).scope;
  } catch (err) {
    if (HindsightError.is(err, "NOT_FOUND")) return;
    throw err;
  }
  if (!mayUse(a.grant, scope)) throw deny("PROJECT_FORBIDDEN", `memory ${id} is in a project token ${a.grant.id} may not use (it may use ${describeProjects(a.grant)})`);
}

/**
 * A proposal named by id must be in one of the token's projects. The engine lists proposals per scope
 * only, so one outside them (or unknown) is refused alike, which also tells a token nothing about other projects.
 */
async function checkProposal(a: Access, id: unknown): Promise<void> {
  if (a.grant.projects === ALL_PROJECTS || typeof id !== "string") return;
  for (const scope of a.grant.projects) {
    if ((await a.engine.listProposals({ scope })).some((p) => p.id === id)) return;
  }
  throw deny("PROJECT_FORBIDDEN", `proposal ${id} is not in a project token ${a.grant.id} may use (${describeProjects(a.grant)})`);
}

const scopeArg = (a: Access, args: Args, i: number): Args => {
  const out = [...args];
  out[i] = resolveScope(a.grant, a.serverDefault, args[i]);
  return out;
};

const byId = (permission: Permission, check: (a: Access, id: unknown) => Promise<void>): Rule => async (a, args) => {
  need(a, permission);
  await check(a, args[0]);
  return args;
};

/** Every engine method a route or tool may call, with what it needs. */
const RULES: Record<string, Rule> = {
  recall: async (a, [input]) => (need(a, "read"), [withScope(a, input)]),
  list: async (a, [input]) => (need(a, "read"), [withScope(a, input ?? {})]),
  listPage: async (a, [input, ...rest]) => (need(a, "read"), [withScope(a, input ?? {}), ...rest]),
  count: async (a, args) => (need(a, "read"), scopeArg(a, args, 0)),
  get: byId("read", checkMemory),
  explain: byId("read", checkMemory),
  conflicts: async (a, args) => (need(a, "read"), scopeArg(a, args, 0)),
  stats: async (a, args) => (need(a, "read"), scopeArg(a, args, 0)),
  exportJsonl: async (a, args) => (need(a, "read"), scopeArg(a, args, 0)),
  listProposals: async (a, [options]) => (need(a, "read"), [withScope(a, options ?? {})]),
  resolveIds: async (a, [inputs, options]) => (need(a, "read"), [inputs, withScope(a, options ?? {})]),
  summarize: async (a, [input, ...rest]) => {
    need(a, "read");
    if (isObject(input) && input.propose === true) need(a, "write");
    return [withScope(a, input), ...rest];
  },

  write: async (a, [input, ...rest]) => (need(a, "write"), [withScope(a, input), ...rest]),
  ingest: async (a, [input, ...rest]) => (need(a, "write"), [withScope(a, input), ...rest]),
  forget: async (a, [input, ...rest]) => {
    need(a, "write");
    if (isObject(input)) {
      const ids = [input.id, ...(Array.isArray(input.ids) ? input.ids : [])];
      for (const id of ids) await checkMemory(a, id);
    }
    return [withScope(a, input), ...rest];
  },
  edit: byId("write", checkMemory),
  pin: byId("write", checkMemory),
  resolveConflict: async (a, args) => {
    need(a, "write");
    await checkMemory(a, args[0]);
    await checkMemory(a, args[1]);
    return args;
  },
  proposeCompressions: async (a, args) => (need(a, "write"), scopeArg(a, args, 0)),

  approveProposal: byId("admin", checkProposal),
  rejectProposal: byId("admin", checkProposal),
  rollbackProposal: byId("admin", checkProposal),
  listQuarantined: async (a, args) => (need(a, "admin"), scopeArg(a, args, 0)),
  releaseQuarantined: byId("admin", checkMemory),
  deleteQuarantined: byId("admin", checkMemory),
  auditLog: async (a, [options]) => (need(a, "admin"), [withScope(a, options ?? {})]),
  importJsonl: async (a, args) => (need(a, "admin"), scopeArg(a, args, 1)),
  importMemories: async (a, [inputs, ...rest]) => (need(a, "admin"), [Array.isArray(inputs) ? inputs.map((i) => withScope(a, i)) : inputs, ...rest]),
};

/** Synchronous engine methods a route may call, with the permission each needs. */
const SYNC_RULES: Record<string, Permission> = {
  // POST /eval: runs cases on scratch stores with the served model (no project is touched; CPU is).
  embedderForEval: "admin",
};

/** Engine methods a scoped token may call (each with its checks); every other method is refused. */
export const GOVERNED_METHODS: readonly string[] = [...Object.keys(RULES), ...Object.keys(SYNC_RULES)];

/**
 * The engine as `grant` may use it. Mutations are audited as `token:<id>`. A full grant gets the
 * engine's own actingAs view (no checks to make); anything else a checking view.
 */
export function scopedEngine(engine: MemoryEngine, grant: Grant, actor = `token:${grant.id}`): MemoryEngine {
  const view = engine.actingAs(actor);
  if (isFullGrant(grant)) return view;
  const access = (): Access => ({ grant, engine, serverDefault: engine.config.defaultScope });
  return new Proxy(view, {
    get(target, prop, receiver) {
      if (prop === "config") {
        const config = target.config;
        return { ...config, defaultScope: defaultScopeFor(grant, config.defaultScope) };
      }
      if (prop === "actingAs") return (other: string) => scopedEngine(engine, grant, other);
      // An MCP session's scope (its client's roots or configured scope) chooses among the token's projects, never beyond them.
      if (prop === "withDefaultScope") {
        return (scope: string) => {
          const narrowed = engine.withDefaultScope(scope);
          if (!mayUse(grant, scope)) throw deny("PROJECT_FORBIDDEN", `token ${grant.id} may not use ${scope} (it may use ${describeProjects(grant)})`);
          return scopedEngine(narrowed, grant, actor);
        };
      }
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function" || typeof prop !== "string") return value;
      const method = value as (...args: Args) => unknown;
      const rule = RULES[prop];
      if (rule) return async (...args: Args) => method.apply(target, await rule(access(), args));
      const permission = SYNC_RULES[prop];
      if (permission) {
        return (...args: Args) => {
          need(access(), permission);
          return method.apply(target, args);
        };
      }
      return () => {
        throw deny("PERMISSION_DENIED", `${prop} is not available to token ${grant.id} (a scoped token)`);
      };
    },
  });
}
