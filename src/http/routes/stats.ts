import { z } from "zod";
import { ScopeSchema } from "../../core/model/memory.js";
import { one, parseQuery } from "../query.js";
import type { Route } from "../router.js";

const ScopeQuery = z.object({ scope: ScopeSchema.optional() });

/** Counts per layer, type and status, and recall latency p50 / p95. */
export const statsRoutes: Route[] = [
  {
    method: "GET",
    path: "/stats",
    handler: async ({ engine, query }) => {
      const q = parseQuery(ScopeQuery, { scope: one(query, "scope") });
      return { json: await engine.stats(q.scope) };
    },
  },
];
