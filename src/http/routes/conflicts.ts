import { z } from "zod";
import { ScopeSchema } from "../../core/model/memory.js";
import { one, parseQuery } from "../query.js";
import type { Route } from "../router.js";

const ScopeQuery = z.object({ scope: ScopeSchema.optional() });

/** Unresolved contradictions: pairs of active memories the engine could not decide between. */
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
];
