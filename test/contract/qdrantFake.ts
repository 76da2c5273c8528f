// A FAKE of the few Qdrant REST endpoints QdrantStore calls, in-process on 127.0.0.1. It is NOT Qdrant:
// it exists to catch translation bugs (filters, ids, payloads, paging, ordering) when no Qdrant server
// can run, as on this repository's machines. It follows the documented semantics of the endpoints it
// implements and refuses what real Qdrant refuses that the store could get wrong: non-UUID point ids,
// vectors of the wrong size, payload updates of missing points, order_by without a range index,
// unknown filter conditions. The real server is exercised when QDRANT_URL is set.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Payload = Record<string, unknown>;
type Json = Record<string, unknown>;

interface Point {
  id: string | number;
  vector: number[] | null;
  payload: Payload;
}

interface Collection {
  size: number | null;
  points: Map<string, Point>;
  indexes: Map<string, Json>;
}

class FakeError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

function normaliseId(id: unknown): string | number {
  if (typeof id === "number" && Number.isInteger(id) && id >= 0) return id;
  if (typeof id === "string" && UUID.test(id)) {
    const hex = id.replace(/-/g, "").toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  throw new FakeError(400, `Format error in JSON body: value ${JSON.stringify(id)} is not a valid point ID, valid values are either an unsigned integer or a UUID`);
}

function keyOf(id: string | number): string {
  return typeof id === "number" ? `n:${id}` : `u:${id}`;
}

function values(payload: Payload, key: string): unknown[] {
  const v = payload[key];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

function asArray(x: unknown): Json[] {
  if (x === undefined || x === null) return [];
  return (Array.isArray(x) ? x : [x]) as Json[];
}

export interface FakeQdrant {
  url: string;
  /** Requests served, by "METHOD /path-pattern" (for tests that check what the store asked). */
  calls: string[];
  collections: Map<string, Collection>;
  close(): Promise<void>;
}

export async function startFakeQdrant(): Promise<FakeQdrant> {
  const collections = new Map<string, Collection>();
  const calls: string[] = [];

  function collection(name: string): Collection {
    const c = collections.get(name);
    if (!c) throw new FakeError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return c;
  }

  function tokens(c: Collection, key: string, text: string): string[] | null {
    const index = c.indexes.get(key);
    if (!index || typeof index !== "object" || index.type !== "text") return null;
    const lower = index.lowercase !== false;
    return text.split(/\s+/).filter((t) => t !== "").map((t) => (lower ? t.toLowerCase() : t));
  }

  function matches(c: Collection, p: Point, cond: Json): boolean {
    if ("must" in cond || "should" in cond || "must_not" in cond) {
      for (const k of Object.keys(cond)) if (!["must", "should", "must_not", "min_should"].includes(k)) throw new FakeError(400, `Format error in JSON body: unknown filter key ${k}`);
      const must = asArray(cond.must);
      const should = asArray(cond.should);
      const mustNot = asArray(cond.must_not);
      if (!must.every((x) => matches(c, p, x))) return false;
      if (should.length > 0 && !should.some((x) => matches(c, p, x))) return false;
      if (mustNot.some((x) => matches(c, p, x))) return false;
      return true;
    }
    if ("has_id" in cond) return (cond.has_id as unknown[]).map(normaliseId).some((id) => keyOf(id) === keyOf(p.id));
    if ("is_empty" in cond) {
      const vs = values(p.payload, String((cond.is_empty as Json).key));
      return vs.length === 0 || vs.every((v) => v === null);
    }
    if ("is_null" in cond) return p.payload[String((cond.is_null as Json).key)] === null;
    if (typeof cond.key !== "string") throw new FakeError(400, `Format error in JSON body: unknown condition ${JSON.stringify(cond)}`);
    const key = cond.key;
    const vs = values(p.payload, key);
    if (cond.match !== undefined) {
      const m = cond.match as Json;
      if ("value" in m) return vs.some((v) => v === m.value);
      if ("any" in m) return vs.some((v) => (m.any as unknown[]).includes(v));
      if ("except" in m) return !vs.some((v) => (m.except as unknown[]).includes(v));
      if ("text" in m) {
        const q = tokens(c, key, String(m.text));
        return vs.some((v) => {
          if (typeof v !== "string") return false;
          if (q === null) return v.includes(String(m.text)); // no full-text index: Qdrant matches a substring
          const have = new Set(tokens(c, key, v));
          return q.length > 0 && q.every((t) => have.has(t));
        });
      }
      throw new FakeError(400, `Format error in JSON body: unknown match ${JSON.stringify(m)}`);
    }
    if (cond.range !== undefined) {
      const r = cond.range as { gt?: number; gte?: number; lt?: number; lte?: number };
      return vs.some(
        (v) =>
          typeof v === "number" &&
          (r.gt === undefined || r.gt === null || v > r.gt) &&
          (r.gte === undefined || r.gte === null || v >= r.gte) &&
          (r.lt === undefined || r.lt === null || v < r.lt) &&
          (r.lte === undefined || r.lte === null || v <= r.lte),
      );
    }
    throw new FakeError(400, `Format error in JSON body: unsupported condition ${JSON.stringify(cond)}`);
  }

  function selected(c: Collection, filter: unknown): Point[] {
    const all = [...c.points.values()];
    return filter ? all.filter((p) => matches(c, p, filter as Json)) : all;
  }

  function withPayload(payload: Payload, sel: unknown): Payload | null {
    if (sel === false || sel === undefined || sel === null) return null;
    if (sel === true) return structuredClone(payload);
    const include = Array.isArray(sel) ? (sel as string[]) : ((sel as Json).include as string[] | undefined);
    const exclude = !Array.isArray(sel) ? ((sel as Json).exclude as string[] | undefined) : undefined;
    const out: Payload = {};
    for (const [k, v] of Object.entries(payload)) {
      if (include && !include.includes(k)) continue;
      if (exclude && exclude.includes(k)) continue;
      out[k] = structuredClone(v);
    }
    return out;
  }

  function record(p: Point, body: Json): Json {
    return {
      id: p.id,
      payload: withPayload(p.payload, body.with_payload ?? false),
      vector: body.with_vector === true ? (p.vector ? [...p.vector] : {}) : null,
    };
  }

  function compareIds(a: Point, b: Point): number {
    const ka = keyOf(a.id);
    const kb = keyOf(b.id);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  }

  function normalise(v: number[]): number[] {
    const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    // Qdrant stores Cosine vectors normalised, as float32.
    return v.map((x) => Math.fround(n === 0 ? x : x / n));
  }

  function handle(method: string, path: string, body: Json): unknown {
    const parts = path.split("/").filter((s) => s !== "");
    if (method === "GET" && path === "/telemetry") {
      return {
        collections: {
          number_of_collections: collections.size,
          collections: [...collections.entries()].map(([id, c]) => ({
            id,
            shards: [{ local: { segments: [{ info: { num_points: c.points.size, disk_usage_bytes: 4096 + JSON.stringify([...c.points.values()]).length } }] } }],
          })),
        },
      };
    }
    if (parts[0] !== "collections") throw new FakeError(404, `fake Qdrant: no route ${method} ${path}`);
    if (parts.length === 1 && method === "GET") return { collections: [...collections.keys()].map((name) => ({ name })) };
    const name = decodeURIComponent(parts[1] as string);
    const rest = parts.slice(2).join("/");
    calls.push(`${method} /collections/{c}${rest ? `/${rest}` : ""}`);

    if (rest === "" && method === "PUT") {
      if (collections.has(name)) throw new FakeError(409, `Wrong input: Collection \`${name}\` already exists!`);
      const vectors = body.vectors as Json | undefined;
      if (vectors === undefined) throw new FakeError(400, "fake Qdrant: give vectors (a size and distance, or {} for none)");
      let size: number | null = null;
      if (typeof vectors.size === "number") {
        if (vectors.distance !== "Cosine") throw new FakeError(400, "fake Qdrant: only Cosine distance is faked");
        size = vectors.size;
      } else if (Object.keys(vectors).length > 0) throw new FakeError(400, "fake Qdrant: named vectors are not faked");
      collections.set(name, { size, points: new Map(), indexes: new Map() });
      return true;
    }
    if (rest === "exists" && method === "GET") return { exists: collections.has(name) };
    const c = collection(name);
    if (rest === "" && method === "GET") {
      return {
        status: "green",
        optimizer_status: "ok",
        segments_count: 1,
        points_count: c.points.size,
        indexed_vectors_count: 0,
        config: { params: { vectors: c.size === null ? {} : { size: c.size, distance: "Cosine" } } },
        payload_schema: Object.fromEntries([...c.indexes.entries()].map(([k, v]) => [k, { data_type: typeof v === "string" ? v : v.type, params: v, points: c.points.size }])),
      };
    }
    if (rest === "" && method === "DELETE") return collections.delete(name);
    if (rest === "index" && method === "PUT") {
      const schema = body.field_schema;
      const type = typeof schema === "string" ? schema : (schema as Json | undefined)?.type;
      if (!["keyword", "integer", "float", "text", "bool", "datetime", "uuid"].includes(String(type))) throw new FakeError(400, `Format error in JSON body: field_schema ${JSON.stringify(schema)}`);
      if (type === "text" && !["whitespace", "word", "prefix", "multilingual", undefined].includes((schema as Json).tokenizer as string | undefined)) throw new FakeError(400, "bad tokenizer");
      c.indexes.set(String(body.field_name), typeof schema === "string" ? { type: schema } : (schema as Json));
      return { operation_id: 1, status: "completed" };
    }
    if (rest === "points" && method === "PUT") {
      for (const raw of asArray(body.points)) {
        const id = normaliseId(raw.id);
        let vector: number[] | null = null;
        if (c.size === null) {
          if (raw.vector === undefined || Array.isArray(raw.vector) || Object.keys(raw.vector as Json).length > 0) {
            throw new FakeError(400, "Wrong input: Not existing vector name error: (this collection has no vectors: send vector: {})");
          }
        } else {
          if (!Array.isArray(raw.vector) || raw.vector.length !== c.size) {
            throw new FakeError(400, `Wrong input: Vector dimension error: expected dim: ${c.size}, got ${Array.isArray(raw.vector) ? raw.vector.length : "none"}`);
          }
          vector = normalise(raw.vector as number[]);
        }
        c.points.set(keyOf(id), { id, vector, payload: structuredClone((raw.payload ?? {}) as Payload) });
      }
      return { operation_id: 1, status: "completed" };
    }
    if (rest === "points" && method === "POST") {
      return asArray(body.ids)
        .map((raw) => c.points.get(keyOf(normaliseId(raw))))
        .filter((p): p is Point => p !== undefined)
        .map((p) => record(p, body));
    }
    if (rest === "points/delete" && method === "POST") {
      if (body.points) for (const raw of asArray(body.points)) c.points.delete(keyOf(normaliseId(raw)));
      else if (body.filter) for (const p of selected(c, body.filter)) c.points.delete(keyOf(p.id));
      else throw new FakeError(400, "fake Qdrant: delete needs points or a filter");
      return { operation_id: 1, status: "completed" };
    }
    if (rest === "points/batch" && method === "POST") {
      for (const op of asArray(body.operations)) {
        const spec = (op.overwrite_payload ?? op.set_payload) as Json | undefined;
        if (!spec) throw new FakeError(400, `fake Qdrant: batch operation ${Object.keys(op).join(",")} is not faked`);
        for (const raw of asArray(spec.points)) {
          const p = c.points.get(keyOf(normaliseId(raw)));
          if (!p) throw new FakeError(404, `Not found: No point with id ${String(raw)} found`);
          p.payload = op.overwrite_payload ? structuredClone(spec.payload as Payload) : { ...p.payload, ...structuredClone(spec.payload as Payload) };
        }
      }
      return [{ operation_id: 1, status: "completed" }];
    }
    if (rest === "points/count" && method === "POST") return { count: selected(c, body.filter).length };
    if (rest === "points/scroll" && method === "POST") {
      const limit = typeof body.limit === "number" ? body.limit : 10;
      let points = selected(c, body.filter);
      if (body.order_by) {
        const ob = (typeof body.order_by === "string" ? { key: body.order_by } : body.order_by) as { key: string; direction?: string };
        const index = c.indexes.get(ob.key);
        if (!index || !["float", "integer", "datetime"].includes(String(index.type))) {
          throw new FakeError(400, `Bad request: No range index for \`order_by\` key: \`${ob.key}\`. Please create one to use \`order_by\`.`);
        }
        if (body.offset !== undefined && body.offset !== null) throw new FakeError(400, "Bad request: Cannot use an `offset` when using `order_by`");
        const sign = ob.direction === "desc" ? -1 : 1;
        points = points.filter((p) => typeof p.payload[ob.key] === "number").sort((a, b) => sign * ((a.payload[ob.key] as number) - (b.payload[ob.key] as number)) || compareIds(a, b));
        return { points: points.slice(0, limit).map((p) => record(p, body)), next_page_offset: null };
      }
      points.sort(compareIds);
      if (body.offset !== undefined && body.offset !== null) {
        const from = keyOf(normaliseId(body.offset));
        points = points.filter((p) => keyOf(p.id) >= from);
      }
      const page = points.slice(0, limit);
      const next = points[limit];
      return { points: page.map((p) => record(p, body)), next_page_offset: next ? next.id : null };
    }
    if (rest === "points/query" && method === "POST") {
      if (c.size === null) throw new FakeError(400, "fake Qdrant: this collection has no vectors");
      const q = body.query;
      if (!Array.isArray(q) || q.length !== c.size) throw new FakeError(400, `Wrong input: Vector dimension error: expected dim: ${c.size}`);
      const nq = normalise(q as number[]);
      const limit = typeof body.limit === "number" ? body.limit : 10;
      const scored = selected(c, body.filter)
        .map((p) => ({ p, score: Math.fround((p.vector as number[]).reduce((s, x, i) => s + x * (nq[i] as number), 0)) }))
        .sort((a, b) => b.score - a.score || compareIds(a.p, b.p))
        .slice(0, limit);
      return { points: scored.map(({ p, score }) => ({ ...record(p, body), score, version: 1 })) };
    }
    throw new FakeError(404, `fake Qdrant: no route ${method} ${path}`);
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const started = performance.now();
      let status = 200;
      let payload: unknown;
      try {
        const text = Buffer.concat(chunks).toString("utf8");
        const body = text.trim() === "" ? {} : (JSON.parse(text) as Json);
        const url = new URL(req.url ?? "/", "http://fake");
        payload = { result: handle(req.method ?? "GET", url.pathname, body), status: "ok", time: (performance.now() - started) / 1000 };
      } catch (err) {
        status = err instanceof FakeError ? err.status : 500;
        payload = { status: { error: (err as Error).message }, time: 0 };
      }
      const out = JSON.stringify(payload);
      res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
      res.end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    collections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
