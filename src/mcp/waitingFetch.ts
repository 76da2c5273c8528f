/** How long one request may wait in total for a rate limit before its 429 is passed on. */
export const MAX_RATE_WAIT_MS = 30_000;
/** The wait when a 429 names none (or an unreadable one). */
const DEFAULT_WAIT_MS = 1_000;

type Fetch = typeof fetch;

export interface WaitingFetchOptions {
  fetch?: Fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Reads an HTTP-date Retry-After. */
  now?: () => number;
  maxWaitMs?: number;
  onWait?: (ms: number) => void;
}

/** Retry-After in milliseconds: delta seconds or an HTTP date (read against `now`), bounded below by 0. */
export function retryAfterMs(header: string | null, now: number): number {
  if (header === null || header.trim() === "") return DEFAULT_WAIT_MS;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? DEFAULT_WAIT_MS : Math.max(0, at - now);
}

/**
 * A fetch that answers a rate limit (429) by waiting as long as the server asks and sending the same
 * request again, up to `maxWaitMs` in all; then the 429 is returned as it came. The bridge relays an
 * agent's calls to an owner that may limit its token (a `hindsight serve` with --rate): a call held
 * back for a second is an answer, a call failed for being early is a lost write to the agent.
 * Only bodies that can be sent twice (strings, as the MCP transport sends) are retried.
 */
export function waitingFetch(options: WaitingFetchOptions = {}): Fetch {
  const base = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxWait = options.maxWaitMs ?? MAX_RATE_WAIT_MS;
  const now = options.now ?? Date.now;
  return async (input, init) => {
    let waited = 0;
    for (;;) {
      const res = await base(input, init);
      const resendable = init?.body === undefined || init.body === null || typeof init.body === "string";
      if (res.status !== 429 || !resendable) return res;
      const wait = Math.max(1, retryAfterMs(res.headers.get("retry-after"), now()));
      if (waited + wait > maxWait) return res;
      await res.body?.cancel().catch(() => undefined);
      options.onWait?.(wait);
      await sleep(wait);
      waited += wait;
    }
  };
}
