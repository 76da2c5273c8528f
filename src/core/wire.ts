/**
 * The one wire casing. Every external interface (MCP tool arguments and results, REST bodies and
 * queries, the CLI's --json, the export file) spells field names in snake_case, as MCP tools do;
 * TypeScript objects inside a process are camelCase. The conversion happens once, at the edge, with
 * these functions — never by rewriting message text.
 *
 * Maps on the wire are keyed by values, not field names (a layer "L1", a type "task_state", a status):
 * such keys have no lower-to-upper boundary, so toWire leaves them alone. fromWire is for objects
 * whose keys are all field names (request bodies, answers read without a schema).
 */

const CAMEL = /^[a-z][a-zA-Z0-9]*$/;
const SNAKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** A field name as the wire spells it: "validUntil" → "valid_until", "steps.3.atMs" → "steps.3.at_ms"; anything else unchanged. */
export function wireField(name: string): string {
  return name
    .split(".")
    .map((part) => (CAMEL.test(part) ? part.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase() : part))
    .join(".");
}

/** A wire field name as TypeScript spells it: "valid_until" → "validUntil"; anything else unchanged. */
export function codeField(name: string): string {
  return SNAKE.test(name) ? name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : name;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A value to send: every plain object's keys in wire casing, deeply (toJSON is applied first, as JSON.stringify would). */
export function toWire(value: unknown): unknown {
  const v = value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function" ? (value as { toJSON(): unknown }).toJSON() : value;
  if (Array.isArray(v)) return v.map(toWire);
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, item] of Object.entries(v)) {
    if (item !== undefined) out[wireField(k)] = toWire(item);
  }
  return out;
}

/** A key the wire does not allow: camelCase where snake_case is expected, with the path to it (e.g. "items.2.sessionId"). */
export interface CasingProblem {
  path: string;
  key: string;
  expected: string;
}

/**
 * A received value with its keys in TypeScript casing, deeply. With `strict`, the first key spelled in
 * camelCase is reported instead, so a client that sends `validUntil` learns the API says `valid_until`
 * rather than having it half-understood.
 */
export function fromWire(value: unknown, options: { strict?: boolean } = {}): { value: unknown } | { problem: CasingProblem } {
  let problem: CasingProblem | null = null;
  const strict = options.strict === true;
  // The path is only kept to name a refused key, so only in strict mode.
  const walk = (v: unknown, path: string[] | null): unknown => {
    if (problem) return v;
    if (Array.isArray(v)) return v.map((item, i) => walk(item, path && [...path, String(i)]));
    if (!isPlainObject(v)) return v;
    const out: Record<string, unknown> = {};
    for (const [k, item] of Object.entries(v)) {
      if (path && /[A-Z]/.test(k) && CAMEL.test(k)) {
        problem = { path: [...path, k].join("."), key: k, expected: wireField(k) };
        return v;
      }
      out[codeField(k)] = walk(item, path && [...path, k]);
    }
    return out;
  };
  const converted = walk(value, strict ? [] : null);
  return problem ? { problem } : { value: converted };
}
