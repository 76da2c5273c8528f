import { PROTOCOL_VERSION } from "../../src/protocol/constants.js";
import type { HostMessage, ProtocolError } from "../../src/protocol/messages.js";
import type { Method, NotificationData, NotificationEvent, Params, Result } from "../../src/protocol/requests.js";
import type { VsCodeApi } from "./vscodeApi.js";

/** A failed request: the extension's error code, message and the field it is about. */
export class RpcError extends Error {
  readonly code: string;
  readonly field: string | undefined;

  constructor(error: ProtocolError) {
    super(error.message);
    this.name = "RpcError";
    this.code = error.code;
    this.field = error.field;
  }
}

type Listener<E extends NotificationEvent> = (data: NotificationData<E>) => void;

/**
 * How long a request waits for the extension's answer. Longer than the extension's own timeout for
 * one call to the memory server (30 s, src/extension/sidebar/backend.ts), so a slow server is
 * normally reported by the extension with its reason; this ends a wait for an answer that will
 * never come (the extension host restarted, a message lost), which would leave a view loading forever.
 */
export const REQUEST_TIMEOUT_MS = 45_000;

/** A suite run waits for a person in the file picker and then for the eval itself, which the extension allows 15 minutes. */
export const SUITE_RUN_TIMEOUT_MS = 20 * 60_000;

export function requestTimeoutMs(method: Method): number {
  return method === "tests.run" ? SUITE_RUN_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
}

/** Where the extension's messages arrive: the webview's window. */
export interface MessageSource {
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
}

/**
 * Requests to the extension and notifications from it, over postMessage. Every request gets a
 * fresh id and resolves with its response; the ready handshake asks for the session snapshot.
 */
export class Rpc {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  private readonly listeners = new Map<NotificationEvent, Set<(data: unknown) => void>>();

  constructor(
    private readonly api: VsCodeApi,
    source: MessageSource,
    private readonly timeoutFor: (method: Method) => number = requestTimeoutMs,
  ) {
    source.addEventListener("message", (event) => this.receive(event.data));
  }

  ready(): void {
    this.api.postMessage({ type: "ready", protocolVersion: PROTOCOL_VERSION });
  }

  request<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    const id = this.nextId++;
    return new Promise<Result<M>>((resolve, reject) => {
      const ms = this.timeoutFor(method);
      const timer = setTimeout(() => {
        if (!this.pending.delete(id)) return;
        reject(new RpcError({ code: "REQUEST_TIMEOUT", message: `the extension did not answer ${method} within ${Math.round(ms / 1000)} s: try again, or reload the view` }));
      }, ms);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      this.api.postMessage({ type: "request", id, method, params });
    });
  }

  on<E extends NotificationEvent>(event: E, fn: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    const wrapped = fn as (data: unknown) => void;
    set.add(wrapped);
    return () => set.delete(wrapped);
  }

  private receive(data: unknown): void {
    if (typeof data !== "object" || data === null) return;
    const message = data as HostMessage;
    if (message.type === "response") {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(new RpcError(message.error));
      return;
    }
    if (message.type === "notification") {
      for (const fn of this.listeners.get(message.event) ?? []) fn(message.data);
    }
  }
}
