import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { chmod, mkdir, readFile, rename, rmdir, stat, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { HindsightError } from "../core/errors.js";
import { newToken } from "../http/auth.js";

/** The lock file in a store folder: who owns the store, and how other processes reach it. */
export const LOCK_FILE = "owner.lock";
/** The owner's bearer token for its loopback server, readable only by the user (clients read it). */
export const OWNER_TOKEN_FILE = "owner.token";
/** A takeover that has not finished in this long was itself killed; the next one may proceed. */
const TAKEOVER_STALE_MS = 10_000;
/** An unreadable lock younger than this may be one being written right now. */
const TORN_GRACE_MS = 2_000;

export interface OwnerInfo {
  pid: number;
  hostname: string;
  /** The kernel's start time of the process (Linux), so a reused pid is not taken for the owner. */
  processStart: string | null;
  /** What holds it: "serve", "mcp", "cli", "reembed", "vscode". */
  role: string;
  since: string;
  /** The owner's loopback server (http://127.0.0.1:port), once it listens; null for an owner without one. */
  url: string | null;
  /** The file holding the bearer token `url` accepts. */
  tokenFile: string | null;
}

/** The start time of a process from /proc (field 22 of stat), or null where there is no /proc. */
function processStartOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote the lock still runs (a lock from another machine is taken as alive: nothing here can tell). */
export function ownerAlive(info: OwnerInfo): boolean {
  if (info.hostname !== hostname()) return true;
  try {
    process.kill(info.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const start = processStartOf(info.pid);
  return info.processStart === null || start === null || start === info.processStart;
}

async function readLock(path: string): Promise<OwnerInfo | null> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as OwnerInfo;
  } catch (err) {
    // Missing, or a torn write from a process killed while writing it (nothing alive stands behind that).
    if ((err as NodeJS.ErrnoException).code === "ENOENT" || err instanceof SyntaxError) return null;
    throw err;
  }
}

/** The live owner of a store folder, or null when nobody holds it (a lock left by a killed owner counts as nobody). */
export async function liveOwner(dir: string): Promise<OwnerInfo | null> {
  const info = await readLock(join(dir, LOCK_FILE));
  return info && ownerAlive(info) ? info : null;
}

export function describeOwner(info: OwnerInfo): string {
  return `pid ${info.pid} (${info.role}${info.url ? ` at ${info.url}` : ""}, since ${info.since})`;
}

/**
 * Exactly one process opens a local store folder. The lock file is created exclusively; a lock whose
 * process is gone (killed, crashed) is taken over, one taker at a time. The owner writes its loopback
 * address and token file into it so other processes become its clients instead of opening the store.
 */
export class OwnerLock {
  private released = false;

  private constructor(
    readonly dir: string,
    private info: OwnerInfo,
    /** A read-only folder holds no lock: nobody can write it, so readers need no owner. */
    private readonly fileless = false,
  ) {}

  get owner(): OwnerInfo {
    return this.info;
  }

  /** Takes the store folder, or fails with STORE_LOCKED naming the live owner. */
  static async acquire(dir: string, role: string, now: () => Date = () => new Date()): Promise<OwnerLock> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // The folder holds the user's memories and tokens: only its owner may enter it.
    if (process.platform !== "win32") await chmod(dir, 0o700).catch(() => undefined);
    const path = join(dir, LOCK_FILE);
    const info: OwnerInfo = { pid: process.pid, hostname: hostname(), processStart: processStartOf(process.pid), role, since: now().toISOString(), url: null, tokenFile: null };
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        await writeFile(path, JSON.stringify(info), { flag: "wx", mode: 0o600 });
        return new OwnerLock(dir, info);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === "EROFS") return new OwnerLock(dir, info, true);
        if (code !== "EEXIST") throw err;
      }
      const held = await readLock(path);
      if (held === null && (await youngerThan(path, TORN_GRACE_MS))) {
        // Just created and not yet written by a live process, most likely: look again shortly.
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      if (held && ownerAlive(held)) {
        throw new HindsightError("STORE_LOCKED", `the store ${dir} is owned by ${describeOwner(held)}: ${held.url ? "connect to it as a client" : "stop it first"}`, {
          details: { owner: held },
        });
      }
      await takeOver(dir, path, held);
    }
    throw new HindsightError("STORE_LOCKED", `the store ${dir} keeps changing owners: try again`);
  }

  /** A bearer token for the owner's server to accept from its clients (give it to `publish`). */
  static newToken(): string {
    return newToken();
  }

  /** Publishes the owner's loopback server and the token clients use with it (written 0600 beside the lock). */
  async publish(url: string, token: string): Promise<void> {
    if (this.fileless) return;
    const tokenFile = join(this.dir, OWNER_TOKEN_FILE);
    await writeFile(tokenFile, `${token}\n`, { mode: 0o600 });
    await chmod(tokenFile, 0o600);
    this.info = { ...this.info, url, tokenFile };
    // Written beside and renamed over, so a reader never sees half a lock.
    const tmp = join(this.dir, `${LOCK_FILE}.${randomBytes(4).toString("hex")}`);
    await writeFile(tmp, JSON.stringify(this.info), { mode: 0o600 });
    await rename(tmp, join(this.dir, LOCK_FILE));
  }

  /** Gives the folder up (only if the lock is still this process's). */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (this.fileless) return;
    const path = join(this.dir, LOCK_FILE);
    const held = await readLock(path).catch(() => null);
    if (held && held.pid === this.info.pid && held.since === this.info.since) await unlink(path).catch(() => undefined);
  }
}

async function youngerThan(path: string, ms: number): Promise<boolean> {
  const s = await stat(path).catch(() => null);
  return s !== null && Date.now() - s.mtimeMs < ms;
}

/** Removes a dead owner's lock; a takeover folder (mkdir is atomic) keeps two takers from removing each other's fresh lock. */
async function takeOver(dir: string, path: string, seen: OwnerInfo | null): Promise<void> {
  const guard = join(dir, `${LOCK_FILE}.takeover`);
  try {
    await mkdir(guard);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const age = Date.now() - (await stat(guard).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age > TAKEOVER_STALE_MS) await rmdir(guard).catch(() => undefined);
    else await new Promise((resolve) => setTimeout(resolve, 50));
    return;
  }
  try {
    // Still the dead owner's lock (not one a faster taker just wrote)?
    const now = await readLock(path);
    const same = now === null ? seen === null : seen !== null && now.pid === seen.pid && now.since === seen.since;
    if (same) await unlink(path).catch(() => undefined);
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}
