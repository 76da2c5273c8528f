import { stat } from "node:fs/promises";
import type { Logger } from "../core/ports.js";
import type { Grant } from "../http/access/grant.js";
import { BearerAuth, type Authenticator } from "../http/auth.js";
import { grantsOf, readTokenFile } from "./tokenFile.js";

const MISSING = "missing";

export interface TokenFileAuthOptions {
  /** The server's rate limit, for tokens that set only one of rate and burst. */
  defaults: { rate: number; burst: number };
  logger?: Logger;
  /** How often (ms) the file is looked at again; 0: on every request (tests). */
  checkEveryMs?: number;
  /** Monotonic milliseconds (injected by tests). */
  now?: () => number;
}

/**
 * Authentication from a tokens file that follows the file while the server runs: `hindsight token
 * create|revoke` take effect within `checkEveryMs` (a stat of the file per interval; it is re-read only
 * when its size, time or inode changed). A deleted file is no tokens. A file that stops parsing is
 * reported and the last good set of tokens stays in force: the CLI replaces the file atomically, so that
 * only happens to a hand edit.
 */
export class TokenFileAuth implements Authenticator {
  private auth: BearerAuth;
  private signature: string;
  private checkedAt: number;
  private checking: Promise<void> | null = null;
  /** The last failure reported, so a broken file is reported once per change, not once per request. */
  private failure: string | null = null;

  private constructor(
    private readonly path: string,
    private readonly options: TokenFileAuthOptions,
    first: { auth: BearerAuth; signature: string; count: number },
  ) {
    this.auth = first.auth;
    this.signature = first.signature;
    this.checkedAt = this.now();
  }

  /**
   * Reads the file (a malformed one is an error that names the field) and starts following it. A file
   * that does not exist yet is no tokens: every request is 401 until `hindsight token create` writes it
   * (how a new container starts: the server first, then the first token, with `docker compose exec`).
   */
  static async open(path: string, options: TokenFileAuthOptions): Promise<{ auth: TokenFileAuth; live: number }> {
    const loaded = await TokenFileAuth.load(path, options);
    if (loaded.signature === MISSING) options.logger?.warn("the tokens file does not exist yet: every request is refused until a token is created", { path });
    return { auth: new TokenFileAuth(path, options, loaded), live: loaded.count };
  }

  private static async load(path: string, options: TokenFileAuthOptions): Promise<{ auth: BearerAuth; signature: string; count: number }> {
    const signature = await TokenFileAuth.signatureOf(path);
    const entries = grantsOf(await readTokenFile(path, { missingOk: true }), options.defaults);
    return { auth: BearerAuth.fromDigests(entries), signature, count: entries.length };
  }

  private static async signatureOf(path: string): Promise<string> {
    try {
      const s = await stat(path);
      return `${s.ino}:${s.size}:${s.mtimeMs}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return MISSING;
      throw err;
    }
  }

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }

  async identify(header: string | string[] | undefined): Promise<Grant | null> {
    if (this.now() - this.checkedAt >= (this.options.checkEveryMs ?? 1000)) {
      this.checking ??= this.refresh().finally(() => {
        this.checking = null;
      });
      await this.checking;
    }
    return this.auth.identify(header);
  }

  private async refresh(): Promise<void> {
    this.checkedAt = this.now();
    try {
      if ((await TokenFileAuth.signatureOf(this.path)) === this.signature) return;
      const loaded = await TokenFileAuth.load(this.path, this.options);
      this.auth = loaded.auth;
      this.signature = loaded.signature;
      this.failure = null;
      this.options.logger?.info("tokens file reloaded", { path: this.path, live: loaded.count });
    } catch (err) {
      const message = (err as Error).message;
      if (message !== this.failure) this.options.logger?.error("tokens file could not be read; keeping the tokens loaded before", { path: this.path, error: message });
      this.failure = message;
    }
  }
}
