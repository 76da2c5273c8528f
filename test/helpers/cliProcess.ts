import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { liveOwner } from "../../src/server/ownerLock.js";

/** Paths and process plumbing shared by the tests that run the built `hindsight` command. */
export const ROOT = resolve(__dirname, "../../..");
export const CLI = join(ROOT, "bin", "hindsight.js");
export const MODEL_DIR = resolve(ROOT, "..", "shared", "models");
const BUNDLE = join(ROOT, "dist", "cli.js");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/** Builds dist/cli.js when it is missing or older than src/, so no test runs a stale bundle. */
export function ensureBundle(): void {
  if (!existsSync(BUNDLE) || statSync(BUNDLE).mtimeMs < newestMtime(join(ROOT, "src"))) {
    execFileSync(process.execPath, [join(ROOT, "esbuild.js")], { cwd: ROOT, stdio: "inherit" });
  }
  if (!existsSync(BUNDLE)) throw new Error("dist/cli.js was not built");
}

/**
 * The environment of a child `hindsight`: this process's, with HINDSIGHT_HOME in a test folder, the
 * local model folder, and no model, download or token settings leaking in unless `extra` sets them.
 */
export function childEnv(home: string, extra: NodeJS.ProcessEnv = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, HINDSIGHT_HOME: home, HINDSIGHT_MODEL_DIR: MODEL_DIR })) if (v !== undefined) env[k] = v;
  delete env.HINDSIGHT_MODEL;
  delete env.HINDSIGHT_ALLOW_DOWNLOAD;
  delete env.HINDSIGHT_TOKEN;
  // A daemon a test's command starts stops soon even when the test cannot stop it.
  env.HINDSIGHT_IDLE_EXIT = "60";
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Spawns `hindsight serve --port 0 ARGS` and waits for the bound URL it prints on stderr. */
export function startServeProcess(home: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], { cwd: home, env: childEnv(home, extraEnv), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 90_000);
    child.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolvePromise({ child, url: m[1]!, stderr: () => stderr, exited });
      }
    });
    child.on("error", reject);
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

/** Stops the process that owns a store folder (a daemon a command started), SIGKILL after 10 s. */
export async function stopOwner(storeDir: string): Promise<void> {
  const owner = await liveOwner(storeDir);
  if (!owner || owner.pid === process.pid) return;
  try {
    process.kill(owner.pid, "SIGTERM");
  } catch {
    return;
  }
  for (let i = 0; i < 100; i++) {
    if (!(await liveOwner(storeDir))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  try {
    process.kill(owner.pid, "SIGKILL");
  } catch {
    // gone meanwhile
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `hindsight` with `args` to its end, collecting stdout and stderr. */
export function runCli(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<CliRun> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/**
 * Mocha hooks for CLI tests: a fresh HINDSIGHT_HOME and working folder for each test, the store's
 * owner (a daemon a command started) stopped and both folders removed after it. `cli` runs the
 * built command in them.
 */
export function cliSandbox(): { home: string; work: string; cli: (args: string[]) => Promise<CliRun> } {
  const box = { home: "", work: "", cli: (args: string[]) => runCli(args, { cwd: box.work, env: childEnv(box.home) }) };
  before(function () {
    this.timeout(120_000);
    ensureBundle();
  });
  beforeEach(async () => {
    box.home = await mkdtemp(join(tmpdir(), "hindsight-home-"));
    box.work = await mkdtemp(join(tmpdir(), "hindsight-work-"));
  });
  afterEach(async () => {
    await stopOwner(join(box.home, "store"));
    await rm(box.home, { recursive: true, force: true });
    await rm(box.work, { recursive: true, force: true });
  });
  return box;
}
