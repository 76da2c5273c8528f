/**
 * Stable error codes: callers (agents, scripts, the sidebar) branch on these, never on message text.
 * One list for every layer, so a code means the same thing whether the engine, a server or a client
 * raised it; each transport maps it once (HTTP status in src/http/errors.ts, "CODE: message" text
 * for MCP tools and the CLI, the sidebar's response error).
 */
export const ERROR_CODES = [
  // The engine's.
  "INVALID_INPUT",
  "NOT_FOUND",
  "EMBEDDING_MODEL_MISMATCH",
  "MODEL_UNAVAILABLE",
  "STORE_ERROR",
  "STORE_CLOSED",
  "STORE_LOCKED",
  "STORE_FULL",
  "STORE_READ_ONLY",
  "GUARD_REFUSED",
  /**
   * Replicas of a team server decide a project's writes one at a time through a lease in their shared
   * Redis; without it (Redis away, or the lease lost) a write is refused rather than decided twice.
   */
  "COORDINATION_UNAVAILABLE",
  "CASES_INVALID",
  "LLM_UNAVAILABLE",
  "LLM_INVALID_OUTPUT",
  // A server's: who may call, how often, how much.
  "UNAUTHORIZED",
  /** The request is refused as a whole (e.g. a Host header outside the allowed ones). */
  "FORBIDDEN",
  /** The token may not use this project (scope). */
  "PROJECT_FORBIDDEN",
  /** The token lacks the permission (read, write, admin) the call needs. */
  "PERMISSION_DENIED",
  "RATE_LIMITED",
  "METHOD_NOT_ALLOWED",
  "PAYLOAD_TOO_LARGE",
  "NOT_IMPLEMENTED",
  /** The port a server was to listen on is taken. */
  "ADDRESS_IN_USE",
  // A client's, about the server it calls.
  /** No answer at all (refused, timed out). */
  "BACKEND_UNAVAILABLE",
  /** An answer that is not what the API promises (not JSON, a field missing): a server of another version. */
  "BACKEND_ERROR",
  /** Anything unexpected; its message is safe to show but says little. */
  "INTERNAL",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** How every transport spells an error: the code, a message safe to show, the wire name of the field it is about. */
export interface WireError {
  code: ErrorCode;
  message: string;
  field?: string;
}

// Symbol.for is shared by every copy of this module: the extension and the server are separate
// bundles, so `instanceof` fails for an error made by the other one while the brand still holds.
const BRAND = Symbol.for("hindsight.error");

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as readonly string[]).includes(value);
}

export class HindsightError extends Error {
  readonly code: ErrorCode;
  /**
   * The input field the error is about, spelled as the wire spells it (e.g. "confidence", "steps.3.at",
   * "valid_until"): every caller of the engine is reached through a wire, so its messages name fields
   * that way too and no transport rewrites them (core/wire.ts wireField).
   */
  readonly field: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: { field?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HindsightError";
    this.code = code;
    this.field = options.field;
    this.details = options.details;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** A HindsightError, also one made by another bundle's copy of this class (branded, not `instanceof`). */
  static is(err: unknown, code?: ErrorCode): err is HindsightError {
    return err instanceof Error && (err as unknown as Record<symbol, unknown>)[BRAND] === true && (code === undefined || (err as HindsightError).code === code);
  }

  /** An error read from a wire answer; a code this version does not know becomes INTERNAL, keeping the original in the message. */
  static fromWire(error: { code?: unknown; message?: unknown; field?: unknown }, details?: Record<string, unknown>): HindsightError {
    const message = typeof error.message === "string" ? error.message : "no message";
    const known = isErrorCode(error.code);
    return new HindsightError(known ? (error.code as ErrorCode) : "INTERNAL", known ? message : `${String(error.code)}: ${message}`, {
      ...(typeof error.field === "string" ? { field: error.field } : {}),
      ...(details ? { details } : {}),
    });
  }

  /** The error as every transport spells it. */
  toWire(): WireError {
    return this.field === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, field: this.field };
  }

  toJSON(): WireError {
    return this.toWire();
  }
}

/** Any failure as the wire error: a HindsightError as it is, anything else as INTERNAL with its message. */
export function wireError(err: unknown): WireError {
  if (HindsightError.is(err)) return err.toWire();
  return { code: "INTERNAL", message: err instanceof Error ? err.message : String(err) };
}

/** "CODE: message": how MCP tool results and the CLI say an error. */
export function errorText(err: unknown): string {
  const e = wireError(err);
  return `${e.code}: ${e.message}`;
}
