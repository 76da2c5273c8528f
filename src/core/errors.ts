/** Stable error codes: callers (MCP tools, REST, sidebar) branch on these, never on message text. */
export const ERROR_CODES = [
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
  "CASES_INVALID",
  "LLM_UNAVAILABLE",
  "LLM_INVALID_OUTPUT",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class HindsightError extends Error {
  readonly code: ErrorCode;
  /** The input field the error is about, when there is one (e.g. "confidence", "steps[3].at"). */
  readonly field: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: { field?: string; details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "HindsightError";
    this.code = code;
    this.field = options.field;
    this.details = options.details;
  }

  static is(err: unknown, code?: ErrorCode): err is HindsightError {
    return err instanceof HindsightError && (code === undefined || err.code === code);
  }

  toJSON(): { code: ErrorCode; message: string; field?: string } {
    return this.field === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, field: this.field };
  }
}
