import { HindsightError, type ErrorCode, type WireError } from "../core/errors.js";

export interface ErrorBody {
  error: WireError;
}

/** Every code's HTTP status, once: the compiler asks for a line when a code is added. */
const STATUS: Record<ErrorCode, number> = {
  INVALID_INPUT: 400,
  CASES_INVALID: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PROJECT_FORBIDDEN: 403,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  // The store holds vectors of another model: the request cannot succeed until the store is re-embedded.
  EMBEDDING_MODEL_MISMATCH: 409,
  PAYLOAD_TOO_LARGE: 413,
  GUARD_REFUSED: 422,
  RATE_LIMITED: 429,
  NOT_IMPLEMENTED: 501,
  // Something this server depends on is missing or busy; the same request may work later.
  MODEL_UNAVAILABLE: 503,
  LLM_UNAVAILABLE: 503,
  STORE_CLOSED: 503,
  STORE_LOCKED: 503,
  // Reads go on; writes cannot.
  STORE_READ_ONLY: 503,
  COORDINATION_UNAVAILABLE: 503,
  STORE_FULL: 507,
  LLM_INVALID_OUTPUT: 502,
  BACKEND_UNAVAILABLE: 502,
  BACKEND_ERROR: 502,
  STORE_ERROR: 500,
  ADDRESS_IN_USE: 500,
  INTERNAL: 500,
};

export function httpStatus(code: ErrorCode): number {
  return STATUS[code];
}

/** Headers an error's answer carries, from what it says in its details (a wait, the methods allowed, a challenge). */
function errorHeaders(err: HindsightError): Record<string, string> {
  const d = err.details ?? {};
  const headers: Record<string, string> = {};
  if (typeof d.retryAfterS === "number") headers["retry-after"] = String(d.retryAfterS);
  if (Array.isArray(d.allow)) headers.allow = d.allow.join(", ");
  if (err.code === "UNAUTHORIZED") headers["www-authenticate"] = 'Bearer realm="hindsight"';
  // The rest of a too-large body is not read: the connection cannot carry another request.
  if (err.code === "PAYLOAD_TOO_LARGE") headers.connection = "close";
  return headers;
}

/** The JSON answer for any error: never a stack trace; unexpected errors become a generic 500. */
export function errorAnswer(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string>; unexpected: boolean } {
  if (HindsightError.is(err)) {
    return { status: STATUS[err.code], body: { error: err.toWire() }, headers: errorHeaders(err), unexpected: err.code === "INTERNAL" };
  }
  return { status: 500, body: { error: { code: "INTERNAL", message: "internal error" } }, headers: {}, unexpected: true };
}
