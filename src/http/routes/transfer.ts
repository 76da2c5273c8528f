import { z } from "zod";
import { ScopeSchema } from "../../core/model/memory.js";
import { one, parseQuery } from "../query.js";
import type { Route } from "../router.js";

const ScopeQuery = z.object({ scope: ScopeSchema.optional() });

/** Largest JSONL body an import accepts. */
export const IMPORT_LIMIT_BYTES = 64 * 1024 * 1024;

/** Export and import as JSONL (see src/core/ops/jsonl.ts for the format). */
export const transferRoutes: Route[] = [
  {
    method: "GET",
    path: "/export",
    handler: async ({ engine, query }) => {
      const q = parseQuery(ScopeQuery, { scope: one(query, "scope") });
      const text = await engine.exportJsonl(q.scope);
      return { text, contentType: "application/x-ndjson; charset=utf-8", headers: { "content-disposition": 'attachment; filename="hindsight-export.jsonl"' } };
    },
  },
  {
    method: "POST",
    path: "/import",
    handler: async ({ engine, query, text, call }) => {
      const q = parseQuery(ScopeQuery, { scope: one(query, "scope") });
      const body = await text(IMPORT_LIMIT_BYTES);
      return { json: await engine.importJsonl(body, q.scope, call) };
    },
  },
];
