import { strict as assert } from "node:assert";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TOKEN_FILE, resolveServerToken } from "../../src/server/token.js";
import { http } from "../helpers/http.js";

const ROOT = resolve(__dirname, "../../..");
const CLI = join(ROOT, "bin", "hindsight.js");
const BUNDLE = join(ROOT, "dist", "cli.js");
const MODEL_DIR = resolve(ROOT, "..", "shared", "models");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Spawns `hindsight serve --port 0` and waits for the bound URL on stderr. */
function serve(home: string, data: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Served> {
  const env: NodeJS.ProcessEnv = { ...process.env, HINDSIGHT_HOME: home, HINDSIGHT_MODEL_DIR: MODEL_DIR, ...extraEnv };
  delete env.HINDSIGHT_MODEL;
  delete env.HINDSIGHT_ALLOW_DOWNLOAD;
  if (!("HINDSIGHT_TOKEN" in extraEnv)) delete env.HINDSIGHT_TOKEN;
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--data", data, "--scope", "project:served"], { cwd: home, env, stdio: ["ignore", "pipe", "pipe"] });
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

describe("integration: `hindsight serve` as a process (LanceDB, real model)", function () {
  this.timeout(180_000);
  let home: string;
  const children: ChildProcess[] = [];

  before(function () {
    if (!existsSync(BUNDLE) || statSync(BUNDLE).mtimeMs < newestMtime(join(ROOT, "src"))) {
      execFileSync(process.execPath, [join(ROOT, "esbuild.js")], { cwd: ROOT, stdio: "inherit" });
    }
    assert.ok(existsSync(BUNDLE), "dist/cli.js was not built");
  });

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "hindsight-serve-"));
  });

  afterEach(async () => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await rm(home, { recursive: true, force: true });
  });

  it("generates a 0600 token once, serves REST on LanceDB, keeps data across restarts, exits cleanly on SIGTERM", async () => {
    const data = join(home, "store");
    const first = await serve(home, data);
    children.push(first.child);
    const tokenLine = first.stderr().split("\n").find((l, i, all) => i > 0 && /shown only this once/.test(all[i - 1] ?? ""));
    const token = (await readFile(join(data, TOKEN_FILE), "utf8")).trim();
    assert.equal(tokenLine, token, "the generated token is printed on stderr");
    if (process.platform !== "win32") assert.equal((await stat(join(data, TOKEN_FILE))).mode & 0o777, 0o600);

    assert.equal((await http(first.url, "GET", "/healthz")).status, 200);
    assert.equal((await http(first.url, "GET", "/api/v1/stats")).status, 401);
    const w = await http(first.url, "POST", "/api/v1/memories", { token, body: { content: "Unit tests use Vitest, not Jest.", type: "fact" } });
    assert.equal(w.status, 201, w.text);
    const edited = await http(first.url, "PATCH", `/api/v1/memories/${w.json.id}`, { token, body: { content: "Unit tests use Vitest with the jsdom environment." } });
    assert.equal(edited.json.reembedded, true);
    const r = await http(first.url, "POST", "/api/v1/recall", { token, body: { query: "Which test framework do we use?" } });
    assert.equal(r.json.memories[0]?.id, w.json.id);
    first.child.kill("SIGTERM");
    assert.equal(await first.exited, 0, first.stderr());

    const second = await serve(home, data);
    children.push(second.child);
    assert.ok(!second.stderr().includes(token), "the token is printed only when generated");
    const exported = await http(second.url, "GET", "/api/v1/export", { token });
    assert.ok(exported.text.includes("jsdom environment"), "data survives the restart");
    const stats = await http(second.url, "GET", "/api/v1/stats", { token });
    assert.equal(stats.json.byStatus.active, 1);
    const metrics = await http(second.url, "GET", "/metrics", { token });
    assert.ok(metrics.text.includes('hindsight_memories{scope="project:served",status="active"} 1'), metrics.text);
    second.child.kill("SIGINT");
    assert.equal(await second.exited, 0, second.stderr());
  });

  it("HINDSIGHT_TOKEN overrides the token file", async () => {
    const data = join(home, "store");
    const envToken = "env-token-0123456789abcdefghij";
    const served = await serve(home, data, { HINDSIGHT_TOKEN: envToken });
    children.push(served.child);
    assert.ok(!existsSync(join(data, TOKEN_FILE)), "no token file is written when one is given");
    assert.equal((await http(served.url, "GET", "/api/v1/stats", { token: envToken })).status, 200);
    served.child.kill("SIGTERM");
    assert.equal(await served.exited, 0, served.stderr());
  });
});

describe("server token resolution", () => {
  it("flag over env over file; a generated token is written once with mode 0600", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hindsight-token-"));
    try {
      const generated = await resolveServerToken({ dataDir: join(dir, "data") });
      assert.equal(generated.source, "generated");
      const again = await resolveServerToken({ dataDir: join(dir, "data") });
      assert.deepEqual([again.source, again.token], ["file", generated.token]);
      assert.equal((await resolveServerToken({ dataDir: join(dir, "data"), env: "from-env-0123456789abc" })).source, "env");
      assert.equal((await resolveServerToken({ dataDir: join(dir, "data"), env: "from-env-0123456789abc", flag: "from-flag-0123456789ab" })).token, "from-flag-0123456789ab");
      await assert.rejects(resolveServerToken({ dataDir: dir, flag: "short" }));
      if (process.platform !== "win32") assert.equal((await stat(join(dir, "data", TOKEN_FILE))).mode & 0o777, 0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
