import { z } from "zod";
import { ScopeSchema } from "../../core/model/memory.js";
import { one, parseQuery } from "../query.js";
import type { Route } from "../router.js";

const ScopeQuery = z.object({ scope: ScopeSchema.optional() });

/**
 * The quarantine: memories the guard held back (they look like instruction injections) and never
 * recalled. A person lists them, releases one (the answer carries the guard's current verdict) or deletes it.
 */
export const quarantineRoutes: Route[] = [
  {
    method: "GET",
    path: "/quarantine",
    handler: async ({ engine, query }) => {
      const q = parseQuery(ScopeQuery, { scope: one(query, "scope") });
      const memories = await engine.listQuarantined(q.scope);
      return { json: { memories: memories.map((m) => ({ ...m, reason: m.statusReason })), count: memories.length } };
    },
  },
  {
    method: "POST",
    path: "/quarantine/:id/release",
    handler: async ({ engine, params, call }) => ({ json: await engine.releaseQuarantined(params.id as string, call) }),
  },
  {
    method: "DELETE",
    path: "/quarantine/:id",
    handler: async ({ engine, params, call }) => ({ json: await engine.deleteQuarantined(params.id as string, call) }),
  },
];
