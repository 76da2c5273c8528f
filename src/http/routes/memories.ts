import { z } from "zod";
import { HindsightError } from "../../core/errors.js";
import { LayerSchema, MemoryTypeSchema, ScopeSchema, StatusSchema } from "../../core/model/memory.js";
import type { ListInput, WriteInput } from "../../core/model/inputs.js";
import type { EditPatch } from "../../core/ops/edit.js";
import { many, one, parseBody, parseQuery } from "../query.js";
import type { Route } from "../router.js";

const FilterQuery = z.object({
  scope: ScopeSchema.optional(),
  layer: z.array(LayerSchema).max(3).optional(),
  type: z.array(MemoryTypeSchema).max(5).optional(),
  status: z.array(StatusSchema).max(4).optional(),
  text: z.string().max(1000).optional(),
  include_expired: z.enum(["true", "false", "1", "0"]).optional(),
});

const PageQuery = FilterQuery.extend({
  limit: z.coerce.number().int().min(1).max(10000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** The list filter of `?scope&layer&type&status&text&include_expired`, as the engine takes it. */
function listFilter(query: URLSearchParams): ListInput {
  const q = parseQuery(FilterQuery, {
    scope: one(query, "scope"),
    layer: many(query, "layer"),
    type: many(query, "type"),
    status: many(query, "status"),
    text: one(query, "text"),
    include_expired: one(query, "include_expired"),
  });
  return {
    ...(q.scope ? { scope: q.scope } : {}),
    ...(q.layer ? { layers: q.layer } : {}),
    ...(q.type ? { types: q.type } : {}),
    ...(q.status ? { statuses: q.status } : {}),
    ...(q.text ? { text: q.text } : {}),
    includeExpired: q.include_expired === "true" || q.include_expired === "1",
  };
}

/** `?include=turns,links`: the source L0 turns and the linked memories (supersede, compression, conflict) with the memory. */
const GetQuery = z.object({ include: z.array(z.enum(["turns", "links"])).max(2).optional() });

const PinBody = z.object({ pinned: z.boolean().default(true) });

/** `?id=a1b2c3d4&id=…`: ids or prefixes of a scope's memories or proposals; `field` is what an error names (a CLI flag). */
const ResolveQuery = z.object({
  id: z.array(z.string()).min(1, "give at least one id"),
  scope: ScopeSchema.optional(),
  kind: z.enum(["memory", "proposal"]).default("memory"),
  field: z.string().max(50).optional(),
});

/** Memories: list with filters, get, write, edit, forget, pin; full ids for the short ones people type. */
export const memoryRoutes: Route[] = [
  {
    method: "GET",
    path: "/resolve",
    handler: async ({ engine, query }) => {
      const q = parseQuery(ResolveQuery, { id: query.getAll("id"), scope: one(query, "scope"), kind: one(query, "kind"), field: one(query, "field") });
      const ids = await engine.resolveIds(q.id, { ...(q.scope ? { scope: q.scope } : {}), kind: q.kind, ...(q.field ? { field: q.field } : {}) });
      return { json: { ids } };
    },
  },
  {
    // Before /memories/:id. One call for a view of every layer and type (the sidebar's groups).
    method: "GET",
    path: "/memories/groups",
    handler: async ({ engine, query }) => {
      const groups = await engine.memoryGroups(listFilter(query));
      return { json: { groups, total: groups.reduce((n, g) => n + g.count, 0) } };
    },
  },
  {
    method: "GET",
    path: "/memories",
    handler: async ({ engine, query }) => {
      const page = parseQuery(PageQuery.pick({ limit: true, offset: true }), { limit: one(query, "limit"), offset: one(query, "offset") });
      const { memories, total } = await engine.listPage({ ...listFilter(query), limit: page.limit, offset: page.offset });
      return { json: { memories, count: memories.length, total, limit: page.limit, offset: page.offset } };
    },
  },
  {
    method: "POST",
    path: "/memories",
    handler: async ({ engine, json, call }) => {
      const body = await json();
      const result = await engine.write(body as WriteInput, call);
      return { status: result.action === "added" || result.action === "superseded" ? 201 : 200, json: result };
    },
  },
  {
    method: "GET",
    path: "/memories/:id",
    handler: async ({ engine, params, query }) => {
      const q = parseQuery(GetQuery, { include: many(query, "include") });
      if (!q.include) return { json: { memory: await engine.get(params.id as string) } };
      const { memory, turns, links } = await engine.explain(params.id as string);
      return { json: { memory, ...(q.include.includes("turns") ? { turns } : {}), ...(q.include.includes("links") ? { links } : {}) } };
    },
  },
  {
    method: "PATCH",
    path: "/memories/:id",
    handler: async ({ engine, params, json, call }) => {
      const patch = await json();
      if (typeof patch !== "object" || patch === null || Array.isArray(patch)) throw new HindsightError("INVALID_INPUT", "the body must be a JSON object of the fields to change", { field: "body" });
      return { json: await engine.edit(params.id as string, patch as EditPatch, call) };
    },
  },
  {
    method: "DELETE",
    path: "/memories/:id",
    handler: async ({ engine, params, call }) => ({ json: await engine.forget({ id: params.id as string }, call) }),
  },
  {
    method: "POST",
    path: "/memories/:id/pin",
    handler: async ({ engine, params, json, call }) => {
      const body = parseBody(PinBody, await json());
      return { json: { memory: await engine.pin(params.id as string, body.pinned, call) } };
    },
  },
  {
    method: "DELETE",
    path: "/memories/:id/pin",
    handler: async ({ engine, params, call }) => ({ json: { memory: await engine.pin(params.id as string, false, call) } }),
  },
];
