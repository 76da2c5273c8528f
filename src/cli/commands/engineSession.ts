import { join } from "node:path";
import { defaultHome, scopeForFolder } from "../../server/paths.js";
import { DEFAULT_IDLE_EXIT_S, ensureOwner } from "../../server/owner.js";
import { openLocalEngine } from "../../server/runtime.js";
import { localMemory, ownerMemory, type CliMemory } from "../memoryApi.js";

export interface SessionFlags {
  scope?: string | undefined;
  data?: string | undefined;
  verbose?: boolean | undefined;
  "no-daemon"?: boolean | undefined;
}

/** The flags every memory command takes to choose its store and how it reaches it. */
export const SESSION_OPTIONS = {
  scope: { type: "string" },
  data: { type: "string" },
  verbose: { type: "boolean" },
  "no-daemon": { type: "boolean" },
} as const;

/** The store folder a command works on: --data, else the store under HINDSIGHT_HOME. */
export function storeDir(values: { data?: string | undefined }): string {
  return values.data ?? join(defaultHome(), "store");
}

/** How long an owner started by a client stays up without requests (HINDSIGHT_IDLE_EXIT, seconds). */
export function idleExitSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.HINDSIGHT_IDLE_EXIT);
  return env.HINDSIGHT_IDLE_EXIT && Number.isFinite(n) && n > 0 ? n : DEFAULT_IDLE_EXIT_S;
}

/**
 * Runs one memory command in its scope (--scope, else the current folder's project). Usually as a
 * client of the store's owner (started as a daemon when nobody owns the store): the command loads
 * no model and sees every other process's writes. With --no-daemon it takes the store's lock and
 * opens the engine itself (STORE_LOCKED when another process owns the store).
 */
export async function withMemory<T>(values: SessionFlags, fn: (memory: CliMemory) => Promise<T>): Promise<T> {
  const scope = values.scope ?? scopeForFolder(process.cwd());
  const dir = storeDir(values);
  if (!values["no-daemon"]) {
    const endpoint = await ensureOwner(dir, { cli: process.argv[1] as string, idleExitS: idleExitSeconds() });
    return fn(ownerMemory(endpoint, scope));
  }
  const local = await openLocalEngine({ scope, dataDir: dir, verbose: values.verbose ?? false, role: "cli" });
  try {
    return await fn(localMemory(local.engine));
  } finally {
    await local.close();
  }
}
