import { strict as assert } from "node:assert";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { HindsightError } from "../../src/core/errors.js";
import type { Logger } from "../../src/core/ports.js";
import { BearerAuth } from "../../src/http/auth.js";
import { TokenFileAuth } from "../../src/server/tokenAuth.js";
import { createToken, grantsOf, parseTokenFile, readTokenFile, revokeToken } from "../../src/server/tokenFile.js";
import { withTempDir } from "../helpers/fakes.js";

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (m: string) => void lines.push(`${level} ${m}`);
  return { lines, debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") };
}

const bearer = (t: string) => `Bearer ${t}`;

describe("integration: the tokens file and the server following it", () => {
  it("a malformed file is INVALID_INPUT naming the field", () => {
    const ok = { id: "a", hash: `sha256:${"0".repeat(64)}`, scopes: ["read"], projects: ["project:a"], created_at: "x", revoked_at: null };
    const cases: Array<[unknown, string]> = [
      [{ version: 2, tokens: [] }, "version"],
      [{ version: 1, tokens: [{ ...ok, hash: "md5:abc" }] }, "tokens.0.hash"],
      [{ version: 1, tokens: [{ ...ok, scopes: ["root"] }] }, "tokens.0.scopes.0"],
      [{ version: 1, tokens: [{ ...ok, scopes: [] }] }, "tokens.0.scopes"],
      [{ version: 1, tokens: [{ ...ok, token: "plain" }] }, "tokens.0.token"],
      [{ version: 1, tokens: [ok, { ...ok, hash: `sha256:${"1".repeat(64)}` }] }, "tokens.1.id"],
      [{ version: 1, tokens: [ok, { ...ok, id: "b" }] }, "tokens.1.hash"],
    ];
    for (const [file, field] of cases) {
      assert.throws(() => parseTokenFile(JSON.stringify(file), "t.json"), (e: unknown) => HindsightError.is(e, "INVALID_INPUT") && e.field === field, field);
    }
    assert.throws(() => parseTokenFile("{", "t.json"), /t\.json: not valid JSON/);
    assert.equal(parseTokenFile(JSON.stringify({ version: 1, tokens: [ok] }), "t.json").tokens.length, 1);
  });

  it("grants: scopes, projects ('*' is every project), own limits with the server's default for the missing half; revoked tokens are left out", async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, "tokens.json");
      await createToken(path, { id: "a", scopes: ["read"], projects: ["project:a", "project:a"], rate: 5 }, new Date());
      await createToken(path, { id: "b", scopes: ["write", "admin"], projects: ["*", "project:x"] }, new Date());
      await createToken(path, { id: "gone", scopes: ["read"], projects: ["project:a"] }, new Date());
      await revokeToken(path, "gone", new Date());
      const grants = grantsOf(await readTokenFile(path), { rate: 20, burst: 60 }).map((g) => g.grant);
      assert.deepEqual(
        grants.map((g) => [g.id, [...g.permissions], g.projects === "*" ? "*" : [...g.projects], g.limit]),
        [
          ["a", ["read"], ["project:a"], { rate: 5, burst: 60 }],
          ["b", ["write", "admin"], "*", undefined],
        ],
      );
      assert.throws(() => BearerAuth.fromDigests([{ digest: Buffer.alloc(16), grant: grants[0]! }]), /32 bytes/);
    });
  });

  it("follows the file: new and revoked tokens apply without a restart; a broken edit keeps the last good set; a deleted file is no tokens", async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, "tokens.json");
      const logger = recordingLogger();
      const { auth, live } = await TokenFileAuth.open(path, { defaults: { rate: 20, burst: 60 }, logger, checkEveryMs: 0 });
      assert.equal(live, 0);
      assert.ok(logger.lines.some((l) => l.startsWith("warn the tokens file does not exist yet")));
      const alice = (await createToken(path, { id: "alice", scopes: ["read"], projects: ["project:a"] }, new Date())).token;
      assert.equal((await auth.identify(bearer(alice)))?.id, "alice", "a token created after the start is accepted");
      assert.equal(await auth.identify(bearer(`${alice}x`)), null);

      await writeFile(path, "{ broken");
      assert.equal((await auth.identify(bearer(alice)))?.id, "alice", "a broken edit keeps the last good tokens");
      assert.equal((await auth.identify(bearer(alice)))?.id, "alice");
      assert.equal(logger.lines.filter((l) => l.startsWith("error tokens file could not be read")).length, 1, "reported once, not per request");

      await rm(path);
      const bob = (await createToken(path, { id: "bob", scopes: ["read"], projects: ["project:b"] }, new Date())).token;
      assert.equal(await auth.identify(bearer(alice)), null, "alice is not in the new file");
      assert.equal((await auth.identify(bearer(bob)))?.id, "bob");
      await revokeToken(path, "bob", new Date());
      assert.equal(await auth.identify(bearer(bob)), null, "revoked");
      await createToken(path, { id: "carol", scopes: ["read"], projects: ["project:c"] }, new Date());
      await rm(path);
      assert.equal(await auth.identify(bearer(bob)), null);
    });
  });

  it("checks the file at most once per interval", async () => {
    await withTempDir(async (dir) => {
      const path = join(dir, "tokens.json");
      let now = 0;
      const { auth } = await TokenFileAuth.open(path, { defaults: { rate: 20, burst: 60 }, checkEveryMs: 1000, now: () => now });
      const t = (await createToken(path, { id: "t", scopes: ["read"], projects: ["project:a"] }, new Date())).token;
      now = 999;
      assert.equal(await auth.identify(bearer(t)), null, "not looked at yet");
      now = 1000;
      assert.equal((await auth.identify(bearer(t)))?.id, "t");
    });
  });
});
