import type { Readable, Writable } from "node:stream";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SCOPE_HEADER } from "./http.js";
import { waitingFetch } from "./waitingFetch.js";

/** The store owner's server and the token it accepts. */
export interface Upstream {
  url: string;
  token: string;
}

export interface BridgeOptions {
  /** Finds (or starts) the store's owner; called again when the owner went away. */
  connect: () => Promise<Upstream>;
  /** The project scope of this agent's session (the owner may have been started elsewhere). */
  scope: string;
  stdin?: Readable;
  stdout?: Writable;
  log?: (message: string) => void;
}

export interface BridgeSession {
  /** Resolves once stdin ended and every request read got its answer, or close() was called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

type Id = string | number;
/** The id of the initialize request the bridge replays on a new owner; its answer is not the client's. */
const REPLAY_ID = "hindsight-bridge-initialize";
/** How often one message is tried against a (new) owner before its request is answered with an error. */
const ATTEMPTS = 3;

const idOf = (m: JSONRPCMessage): Id | undefined => ("id" in m ? (m.id as Id) : undefined);
const isRequest = (m: JSONRPCMessage): boolean => "method" in m && "id" in m;

/**
 * `hindsight mcp` as a client of the store's owner: MCP on stdio relayed to the owner's /mcp. The
 * agent sees one MCP server; the owner holds the store. When the owner goes away (killed, idle,
 * VS Code closed), the bridge finds or starts a new one, replays the agent's initialize, and sends
 * again the requests that had no answer (a repeated write is recognised as a duplicate by the engine).
 */
export async function bridgeStdio(options: BridgeOptions): Promise<BridgeSession> {
  const stdin = options.stdin ?? process.stdin;
  const stdio = new StdioServerTransport(stdin, options.stdout ?? process.stdout);
  const log = options.log ?? (() => undefined);
  let initialize: JSONRPCMessage | null = null;
  /** Requests not answered yet, with the connection they were last sent on (null: being sent). */
  const pending = new Map<Id, { message: JSONRPCMessage; on: Link | null }>();
  let link: Promise<Link> | null = null;
  let replayNeeded = false;
  let ending = false;
  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (finish = resolve));

  interface Link {
    t: StreamableHTTPClientTransport;
    url: string;
    lost: boolean;
    replayed: ((m: JSONRPCMessage) => void) | null;
  }

  const fromOwner = (l: Link, m: JSONRPCMessage): void => {
    const id = idOf(m);
    const answer = id !== undefined && !("method" in m);
    if (answer && id === REPLAY_ID) return l.replayed?.(m);
    if (answer) {
      const entry = pending.get(id);
      pending.delete(id);
      if (entry && "method" in entry.message && entry.message.method === "initialize" && "result" in m) l.t.setProtocolVersion((m.result as { protocolVersion: string }).protocolVersion);
    }
    void stdio.send(m).finally(() => {
      if (ending && pending.size === 0) void close();
    });
  };

  const open = async (replay: boolean): Promise<Link> => {
    const target = await options.connect();
    const t = new StreamableHTTPClientTransport(new URL("/mcp", target.url), {
      requestInit: { headers: { authorization: `Bearer ${target.token}`, [SCOPE_HEADER]: encodeURIComponent(options.scope) } },
      reconnectionOptions: { maxRetries: 2, initialReconnectionDelay: 200, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 2 },
      // A rate-limited call waits its turn; only an owner that does not answer counts as gone.
      fetch: waitingFetch({ onWait: (ms) => log(`the store's owner limits this token's rate; waiting ${ms} ms`) }),
    });
    const l: Link = { t, url: target.url, lost: false, replayed: null };
    t.onmessage = (m) => fromOwner(l, m);
    // A cut stream may have carried answers: if the owner is gone, move to a new one.
    t.onerror = () => void checkOwner(l);
    await t.start();
    if (replay && initialize) {
      const answered = new Promise<JSONRPCMessage>((resolve) => (l.replayed = resolve));
      await t.send({ ...initialize, id: REPLAY_ID } as JSONRPCMessage);
      const answer = await answered;
      if ("result" in answer) t.setProtocolVersion((answer.result as { protocolVersion: string }).protocolVersion);
      await t.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    }
    log(`connected to the store's owner at ${target.url}`);
    return l;
  };

  /** The connection is dead: the next message opens a new one, and what was waiting on it is sent again. */
  const lose = (l: Link): void => {
    if (l.lost) return;
    l.lost = true;
    log(`the store's owner at ${l.url} went away; reconnecting`);
    link = null;
    replayNeeded = true;
    void l.t.close().catch(() => undefined);
    for (const entry of pending.values()) if (entry.on === l) void deliver(entry.message);
  };

  const checkOwner = async (l: Link): Promise<void> => {
    const alive = await fetch(`${l.url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (!alive) lose(l);
  };

  const deliver = async (m: JSONRPCMessage): Promise<void> => {
    const id = idOf(m);
    const entry = id !== undefined && isRequest(m) ? pending.get(id) : undefined;
    if (entry) entry.on = null;
    let last: unknown = null;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      let l: Link;
      try {
        l = await (link ??= open(replayNeeded));
      } catch (err) {
        link = null;
        last = err;
        continue;
      }
      try {
        await l.t.send(m);
        if (entry && pending.has(id as Id)) entry.on = l;
        return;
      } catch (err) {
        last = err;
        lose(l);
      }
    }
    if (entry) {
      pending.delete(id as Id);
      const message = `the memory store's owner did not answer: ${last instanceof Error ? last.message : String(last)}`;
      await stdio.send({ jsonrpc: "2.0", id: id as Id, error: { code: -32000, message } });
    }
  };

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      stdin.off("end", onEnd);
      const l = link ? await link.catch(() => null) : null;
      if (l) {
        await l.t.terminateSession().catch(() => undefined);
        await l.t.close().catch(() => undefined);
      }
      await stdio.close().catch(() => undefined);
      finish();
    })();
    return closing;
  };

  const onEnd = (): void => {
    ending = true;
    if (pending.size === 0) void close();
  };
  stdin.once("end", onEnd);
  stdio.onmessage = (m) => {
    if ("method" in m && m.method === "initialize") initialize = m;
    const id = idOf(m);
    if (id !== undefined && isRequest(m)) pending.set(id, { message: m, on: null });
    void deliver(m);
  };
  stdio.onclose = () => finish();
  await stdio.start();
  return { closed, close };
}
