import { z } from "zod";
import { ScopeSchema } from "../../core/model/memory.js";
import { one, parseBody, parseQuery } from "../query.js";
import type { Route } from "../router.js";

const ScopeQuery = z.object({ scope: ScopeSchema.optional() });
const ResolveBody = z.object({ a: z.string().min(1), b: z.string().min(1), keep: z.enum(["a", "b", "both"]) }).strict();

/** Unresolved contradictions: pairs of active memories the engine could not decide between, and their resolution. */
export const conflictRoutes: Route[] = [
  {
    method: "GET",
    path: "/conflicts",
    handler: async ({ engine, query }) => {
      const q = parseQuery(ScopeQuery, { scope: one(query, "scope") });
      const conflicts = await engine.conflicts(q.scope);
      return { json: { conflicts, count: conflicts.length } };
    },
  },
  {
    method: "POST",
    path: "/conflicts/resolve",
    handler: async ({ engine, json, call }) => {
      const body = parseBody(ResolveBody, await json());
      return { json: await engine.resolveConflict(body.a, body.b, body.keep, call) };
    },
  },
];
