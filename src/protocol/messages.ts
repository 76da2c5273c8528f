import { z } from "zod";
import { METHODS, type Method, type NotificationData, type NotificationEvent, type Params, type Result } from "./requests.js";

// The envelopes on the wire between webview and extension (both directions go through
// postMessage). The webview opens with `ready`; the extension answers with a `session` snapshot;
// then every `request` gets exactly one `response` with the same id.

export const ReadyMessageSchema = z.object({ type: z.literal("ready"), protocolVersion: z.number().int() }).strict();

export const RequestMessageSchema = z
  .object({
    type: z.literal("request"),
    id: z.number().int().nonnegative(),
    method: z.enum(METHODS as [Method, ...Method[]]),
    params: z.unknown(),
  })
  .strict();

/** Anything the webview may send; the extension parses with this before looking further. */
export const WebviewMessageSchema = z.discriminatedUnion("type", [ReadyMessageSchema, RequestMessageSchema]);
export type WebviewMessage = z.output<typeof WebviewMessageSchema>;

export interface ReadyMessage {
  type: "ready";
  protocolVersion: number;
}

export interface RequestMessage<M extends Method = Method> {
  type: "request";
  id: number;
  method: M;
  params: Params<M>;
}

/** Stable codes the webview branches on; server codes (NOT_FOUND, GUARD_REFUSED, ...) pass through. */
export type ErrorCode = "INVALID_INPUT" | "NOT_FOUND" | "GUARD_REFUSED" | "BACKEND_UNAVAILABLE" | "BACKEND_ERROR" | "PROTOCOL_MISMATCH" | "REQUEST_TIMEOUT" | (string & {});

export interface ProtocolError {
  code: ErrorCode;
  message: string;
  /** The input field the error is about (e.g. "patch.confidence"). */
  field?: string;
}

export type ResponseMessage<M extends Method = Method> =
  | { type: "response"; id: number; ok: true; result: Result<M> }
  | { type: "response"; id: number; ok: false; error: ProtocolError };

export interface NotificationMessage<E extends NotificationEvent = NotificationEvent> {
  type: "notification";
  event: E;
  data: NotificationData<E>;
}

export type HostMessage = ResponseMessage | { [E in NotificationEvent]: NotificationMessage<E> }[NotificationEvent];

