import { HindsightError } from "../core/errors.js";

/** Codes the HTTP layer adds to the engine's (src/core/errors.ts). */
export type HttpErrorCode =
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  /** The token may not use this project (scope). */
  | "PROJECT_FORBIDDEN"
  /** The token lacks the permission (read, write, admin) the call needs. */
  | "PERMISSION_DENIED"
  | "RATE_LIMITED"
  | "METHOD_NOT_ALLOWED"
  | "PAYLOAD_TOO_LARGE"
  | "NOT_IMPLEMENTED"
  | "NOT_FOUND"
  | "INVALID_INPUT"
  | "INTERNAL";

/** An error with its HTTP answer: status, a stable code, a message safe to show, optional headers. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: HttpErrorCode,
    message: string,
    readonly options: { field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export interface ErrorBody {
  error: { code: string; message: string; field?: string };
}

const STATUS: Record<string, number> = {
  INVALID_INPUT: 400,
  CASES_INVALID: 400,
  NOT_FOUND: 404,
  GUARD_REFUSED: 422,
  // The store cannot take the write; reads go on.
  STORE_FULL: 507,
  STORE_READ_ONLY: 503,
};

/** The JSON answer for any error: never a stack trace; unexpected errors become a generic 500. */
export function errorAnswer(err: unknown): { status: number; body: ErrorBody; headers: Record<string, string>; unexpected: boolean } {
  if (err instanceof HttpError) {
    const body: ErrorBody = { error: { code: err.code, message: err.message, ...(err.options.field ? { field: err.options.field } : {}) } };
    return { status: err.status, body, headers: err.options.headers ?? {}, unexpected: false };
  }
  if (HindsightError.is(err)) {
    return { status: STATUS[err.code] ?? 500, body: { error: err.toJSON() }, headers: {}, unexpected: false };
  }
  return { status: 500, body: { error: { code: "INTERNAL", message: "internal error" } }, headers: {}, unexpected: true };
}
