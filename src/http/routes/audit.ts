import { z } from "zod";
import { ScopeSchema } from "../../core/model/memory.js";
import { one, parseQuery } from "../query.js";
import type { Route } from "../router.js";

const AuditQuery = z.object({
  scope: ScopeSchema.optional(),
  limit: z.coerce.number().int().min(1).max(10000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** The audit log, newest first: who (token id), when, what operation, which memory ids, scope; never content. */
export const auditRoutes: Route[] = [
  {
    method: "GET",
    path: "/audit",
    handler: async ({ engine, query }) => {
      const q = parseQuery(AuditQuery, { scope: one(query, "scope"), limit: one(query, "limit"), offset: one(query, "offset") });
      const entries = await engine.auditLog({ ...(q.scope ? { scope: q.scope } : {}), limit: q.limit, offset: q.offset });
      return { json: { entries, count: entries.length, limit: q.limit, offset: q.offset } };
    },
  },
];
