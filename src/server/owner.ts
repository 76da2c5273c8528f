import { spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { HindsightError } from "../core/errors.js";
import { describeOwner, liveOwner, type OwnerInfo } from "./ownerLock.js";

/** Where a client reaches the owner of a store: its loopback server and the token it accepts. */
export interface OwnerEndpoint {
  url: string;
  token: string;
  owner: OwnerInfo;
}

/** The log of a daemon started for a store (its stderr), beside the lock. */
export const DAEMON_LOG = "owner.log";
/** A daemon with no request for this long stops (HINDSIGHT_IDLE_EXIT overrides, in seconds). */
export const DEFAULT_IDLE_EXIT_S = 600;

/** The live owner's server, or null when nobody owns the store or the owner has no server (a --no-daemon command). */
export async function ownerEndpoint(dir: string): Promise<OwnerEndpoint | null> {
  const owner = await liveOwner(dir);
  if (!owner?.url || !owner.tokenFile) return null;
  try {
    const token = (await readFile(owner.tokenFile, "utf8")).trim();
    return token ? { url: owner.url, token, owner } : null;
  } catch {
    return null;
  }
}

export interface EnsureOwnerOptions {
  /** The `hindsight` entry script a daemon is started with (the running CLI's). */
  cli: string;
  /** How long to wait for a daemon to load the model and publish its server. */
  timeoutMs?: number;
  idleExitS?: number;
  env?: NodeJS.ProcessEnv;
}

/**
 * The owner's endpoint, starting a daemon (`hindsight serve` on a free loopback port, detached,
 * stopping when idle) when nobody owns the store. Two clients starting one at once is fine: the
 * second daemon finds the lock taken and exits, and both clients wait for whichever published.
 */
export async function ensureOwner(dir: string, options: EnsureOwnerOptions): Promise<OwnerEndpoint> {
  const found = await ownerEndpoint(dir);
  if (found) return found;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const daemon: { started: boolean; exit: number | null | undefined } = { started: false, exit: undefined };
  while (Date.now() < deadline) {
    const endpoint = await ownerEndpoint(dir);
    if (endpoint) return endpoint;
    const owner = await liveOwner(dir);
    if (!owner && !daemon.started) {
      startDaemon(dir, options, (code) => (daemon.exit = code));
      daemon.started = true;
    } else if (!owner && daemon.exit !== undefined) {
      const log = await readFile(join(dir, DAEMON_LOG), "utf8").catch(() => "");
      throw new HindsightError("STORE_ERROR", `the daemon exited with code ${daemon.exit} before it served the store ${dir}: ${log.trim().split("\n").slice(-5).join(" | ") || "no log"}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const owner = await liveOwner(dir);
  throw new HindsightError(
    "STORE_LOCKED",
    owner
      ? `the store ${dir} is held by ${describeOwner(owner)}, which serves no clients; wait for it to finish, or stop it`
      : `no owner of the store ${dir} came up within ${Math.round(timeoutMs / 1000)} s (see ${join(dir, DAEMON_LOG)})`,
  );
}

/** The daemon is a local owner like the editor's: no rate limit (limits are for servers a team shares), as `hindsight owner` has none. */
function startDaemon(dir: string, options: EnsureOwnerOptions, onExit: (code: number | null) => void): void {
  const log = openSync(join(dir, DAEMON_LOG), "a", 0o600);
  const idle = String(options.idleExitS ?? DEFAULT_IDLE_EXIT_S);
  const child = spawn(process.execPath, [options.cli, "serve", "--data", dir, "--host", "127.0.0.1", "--port", "0", "--rate", "0", "--idle-exit", idle], {
    detached: true,
    stdio: ["ignore", "ignore", log],
    env: options.env ?? process.env,
    cwd: dir,
  });
  closeSync(log);
  child.once("exit", onExit);
  child.unref();
}
