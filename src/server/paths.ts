import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";

/** Per-user data folder: HINDSIGHT_HOME, else the platform's usual place. */
export function defaultHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.HINDSIGHT_HOME) return resolve(env.HINDSIGHT_HOME);
  if (process.platform === "win32") return join(env.APPDATA ?? join(homedir(), "AppData", "Roaming"), "hindsight");
  if (process.platform === "darwin") return join(homedir(), "Library", "Application Support", "hindsight");
  return join(env.XDG_DATA_HOME ?? join(homedir(), ".local", "share"), "hindsight");
}

/**
 * Folder with local embedding models: HINDSIGHT_MODEL_DIR, else a `shared/models` folder beside
 * the checkout (how this repository's tests and benchmarks find the model offline), else none.
 */
export function defaultModelDir(env: NodeJS.ProcessEnv = process.env, packageRoot = resolve(__dirname, "..")): string | undefined {
  if (env.HINDSIGHT_MODEL_DIR) return resolve(env.HINDSIGHT_MODEL_DIR);
  const beside = resolve(packageRoot, "..", "shared", "models");
  return existsSync(beside) ? beside : undefined;
}

/** Normalises a git remote to host/owner/repo, so https and ssh clones share one scope. */
export function normaliseRemote(url: string): string {
  return url
    .trim()
    .replace(/^[a-z+]+:\/\//i, "")
    .replace(/^[^@/]+@/, "")
    .replace(/:(?!\d)/, "/")
    .replace(/\.git$/, "")
    .replace(/\/+$/, "")
    .toLowerCase();
}

/** Project scope of a folder: its git remote, else the folder name. */
export function scopeForFolder(folder: string): string {
  try {
    const url = execFileSync("git", ["config", "--get", "remote.origin.url"], { cwd: folder, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    if (url.trim()) return `project:${normaliseRemote(url)}`;
  } catch {
    // not a git repository, or no remote
  }
  try {
    const top = execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd: folder, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    if (top.trim()) return `project:${basename(top.trim()).toLowerCase()}`;
  } catch {
    // not a git repository
  }
  return scopeForFolderName(folder);
}

/** Project scope of a folder by its name alone: scopeForFolder's last resort, for a path that is not on this machine. */
export function scopeForFolderName(folder: string): string {
  return `project:${basename(resolve(folder)).toLowerCase() || "default"}`;
}
