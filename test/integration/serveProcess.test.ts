import { strict as assert } from "node:assert";
import { type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TOKEN_FILE, resolveServerToken } from "../../src/server/token.js";
import { http } from "../helpers/http.js";
import { ensureBundle, startServeProcess, type ServeProcess } from "../helpers/cliProcess.js";

/** Spawns `hindsight serve --port 0` on a data folder and waits for the bound URL on stderr. */
function serve(home: string, data: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  return startServeProcess(home, ["--data", data, "--scope", "project:served"], extraEnv);
}

describe("integration: `hindsight serve` as a process (LanceDB, real model)", function () {
  this.timeout(180_000);
  let home: string;
  const children: ChildProcess[] = [];

  before(() => ensureBundle());

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
    // What to do next: the scope and where it came from, and an agent config that reads the token file.
    assert.match(first.stderr(), /next steps\n {2}scope +project:served \(from --scope/);
    assert.ok(first.stderr().includes(`claude mcp add --transport http hindsight ${first.url}/mcp --header "Authorization: Bearer $(cat ${join(data, TOKEN_FILE)})"`), first.stderr());
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
    assert.equal(stats.json.by_status.active, 1);
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
