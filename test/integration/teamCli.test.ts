import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startFakeQdrant, type FakeQdrant } from "../contract/qdrantFake.js";
import { CLI, childEnv, ensureBundle, startServeProcess, type ServeProcess } from "../helpers/cliProcess.js";
import { http } from "../helpers/http.js";

const run = promisify(execFile);

async function hindsight(home: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [CLI, ...args], { cwd: home, env: childEnv(home, env) });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

async function stop(p: ServeProcess): Promise<number | null> {
  p.child.kill("SIGTERM");
  return p.exited;
}

/** `hindsight token …` and `hindsight serve --tokens FILE [--store qdrant]` as processes (real model). */
describe("integration: team CLI (token create|list|revoke, serve --tokens, --store qdrant)", function () {
  this.timeout(180_000);
  let home: string;
  const servers: ServeProcess[] = [];

  before(() => ensureBundle());
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "hindsight-team-cli-"));
  });
  afterEach(async () => {
    for (const p of servers.splice(0)) await stop(p);
    await rm(home, { recursive: true, force: true });
  });

  it("token create prints the token once on stdout, list never shows a hash or token, revoke marks it", async () => {
    const file = join(home, "tokens.json");
    const created = await hindsight(home, ["token", "create", "--tokens", file, "--id", "alice", "--scopes", "read,write", "--projects", "project:a,team:x", "--rate", "5"]);
    assert.equal(created.code, 0, created.stderr);
    const token = created.stdout.trim();
    assert.match(token, /^hst_[A-Za-z0-9_-]{43}$/);
    assert.match(created.stderr, /shown only this once/);
    const text = await readFile(file, "utf8");
    assert.ok(!text.includes(token), "the token is not on disk");

    const listed = await hindsight(home, ["token", "list", "--tokens", file, "--json"]);
    const parsed = JSON.parse(listed.stdout) as { tokens: Array<Record<string, unknown>> };
    assert.deepEqual(parsed.tokens.map((t) => [t.id, t.scopes, t.projects, t.rate, t.revoked_at]), [["alice", ["read", "write"], ["project:a", "team:x"], 5, null]]);
    assert.ok(!listed.stdout.includes("sha256"), "list shows no hash");

    assert.equal((await hindsight(home, ["token", "revoke", "alice", "--tokens", file])).code, 0);
    const after = JSON.parse((await hindsight(home, ["token", "list", "--tokens", file, "--json"])).stdout) as { tokens: Array<{ revoked_at: string | null }> };
    assert.ok(after.tokens[0]!.revoked_at);

    const dup = await hindsight(home, ["token", "create", "--tokens", file, "--id", "alice", "--projects", "project:a"]);
    assert.equal(dup.code, 2);
    assert.match(dup.stderr, /INVALID_INPUT: a token with id alice exists already/);
    const badScope = await hindsight(home, ["token", "create", "--tokens", file, "--id", "bob", "--scopes", "read,superuser", "--projects", "project:a"]);
    assert.match(badScope.stderr, /--scopes: "superuser" is not one of read, write, admin/);
    const badProject = await hindsight(home, ["token", "create", "--tokens", file, "--id", "bob", "--projects", "github.com/acme"]);
    assert.match(badProject.stderr, /projects.*must look like project:<id>/);
  });

  it("serve --tokens FILE (LanceDB): no plain token is generated; scoped tokens work; a revoke takes effect while it runs", async () => {
    const file = join(home, "tokens.json");
    const alice = (await hindsight(home, ["token", "create", "--tokens", file, "--id", "alice", "--projects", "project:a"])).stdout.trim();
    const bob = (await hindsight(home, ["token", "create", "--tokens", file, "--id", "bob", "--projects", "project:b"])).stdout.trim();
    const data = join(home, "store");
    const p = await startServeProcess(home, ["--data", data, "--tokens", file, "--rate", "0"]);
    servers.push(p);
    assert.match(p.stderr(), /tokens from .*tokens\.json \(2 live/);
    assert.match(p.stderr(), /store LanceDB at /);
    assert.ok(!existsSync(join(data, "server-token")), "no full-access token was generated");

    const w = await http(p.url, "POST", "/api/v1/memories", { token: alice, body: { content: "The api repo deploys from the main branch only." } });
    assert.equal(w.status, 201, w.text);
    assert.equal(w.json.memory.scope, "project:a");
    const foreign = await http(p.url, "GET", `/api/v1/memories/${w.json.id}`, { token: bob });
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.error.code, "PROJECT_FORBIDDEN");

    assert.equal((await hindsight(home, ["token", "revoke", "bob", "--tokens", file])).code, 0);
    let status = 0;
    for (let i = 0; i < 30 && status !== 401; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await http(p.url, "GET", "/api/v1/stats", { token: bob })).status;
    }
    assert.equal(status, 401, "the revoked token is refused within seconds, without a restart");
    assert.equal((await http(p.url, "GET", "/api/v1/stats", { token: alice })).status, 200);
    assert.equal(await stop(servers.pop()!), 0);
  });

  describe("serve --store qdrant (against the FAKE Qdrant REST endpoints; QDRANT_URL runs the contract on a real one)", () => {
    let fake: FakeQdrant;
    before(async () => {
      fake = await startFakeQdrant();
    });
    after(async () => {
      await fake.close();
    });

    it("writes, recalls and exports through the Qdrant store; the collections carry the model and the prefix", async () => {
      const file = join(home, "tokens.json");
      const token = (await hindsight(home, ["token", "create", "--tokens", file, "--id", "ops", "--scopes", "read,write,admin", "--projects", "*"])).stdout.trim();
      const p = await startServeProcess(home, ["--store", "qdrant", "--qdrant-url", fake.url, "--qdrant-prefix", "teamcli", "--tokens", file, "--scope", "team:core", "--rate", "0"]);
      servers.push(p);
      assert.match(p.stderr(), new RegExp(`store Qdrant at ${fake.url.replace(/[.]/g, "\\.")} \\(collections teamcli_\\*\\)`));
      const w = await http(p.url, "POST", "/api/v1/memories", { token, body: { content: "Staging runs on Kubernetes in eu-west-1.", type: "fact" } });
      assert.equal(w.status, 201, w.text);
      assert.equal(w.json.memory.scope, "team:core");
      const r = await http(p.url, "POST", "/api/v1/recall", { token, body: { query: "Where does staging run?" } });
      assert.deepEqual(r.json.memories.map((m: { id: string }) => m.id), [w.json.id]);
      const exported = await http(p.url, "GET", "/api/v1/export", { token });
      assert.ok(exported.text.includes("Kubernetes in eu-west-1"));
      const names = [...fake.collections.keys()].filter((n) => n.startsWith("teamcli_")).sort();
      assert.ok(names.some((n) => /^teamcli_memories_xenova-multilingual-e5-small_384_[0-9a-f]{6}$/.test(n)), names.join(", "));
      const memories = fake.collections.get(names.find((n) => n.startsWith("teamcli_memories_"))!)!;
      assert.equal(memories.points.size, 1);
      const audit = fake.collections.get("teamcli_audit")!;
      assert.ok(audit.points.size >= 1, "the audit log is in Qdrant too");
      assert.equal(await stop(servers.pop()!), 0);
    });

    it("bad store options are refused before anything starts, naming the flag", async () => {
      const file = join(home, "tokens.json");
      const noUrl = await hindsight(home, ["serve", "--port", "0", "--store", "qdrant", "--tokens", file]);
      assert.equal(noUrl.code, 2);
      assert.match(noUrl.stderr, /--qdrant-url: required with --store qdrant/);
      const bad = await hindsight(home, ["serve", "--port", "0", "--store", "postgres", "--tokens", file]);
      assert.match(bad.stderr, /--store: expected lancedb or qdrant, got "postgres"/);
      const down = await hindsight(home, ["serve", "--port", "0", "--store", "qdrant", "--qdrant-url", "http://127.0.0.1:9", "--tokens", file]);
      assert.equal(down.code, 2);
      assert.match(down.stderr, /STORE_ERROR: Qdrant at http:\/\/127\.0\.0\.1:9: /);
    });
  });
});
