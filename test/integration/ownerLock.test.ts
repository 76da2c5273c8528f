import { strict as assert } from "node:assert";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HindsightError } from "../../src/core/errors.js";
import { LOCK_FILE, OwnerLock, liveOwner } from "../../src/server/ownerLock.js";

const MODULE = join(__dirname, "../../src/server/ownerLock.js");

/** A real process that takes the lock (or reports that it could not) and holds it until killed. */
function holder(dir: string, role: string): { child: ChildProcess; result: Promise<string> } {
  const code = `
    const { OwnerLock } = require(${JSON.stringify(MODULE)});
    OwnerLock.acquire(${JSON.stringify(dir)}, ${JSON.stringify(role)})
      .then(() => { process.stdout.write("owner\\n"); setInterval(() => {}, 1000); })
      .catch((e) => { process.stdout.write((e.code || "error") + "\\n"); process.exit(0); });`;
  const child = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
  const result = new Promise<string>((resolvePromise) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      if (out.includes("\n")) resolvePromise(out.trim());
    });
    child.on("close", () => resolvePromise(out.trim()));
  });
  return { child, result };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolvePromise) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolvePromise();
    child.once("close", () => resolvePromise());
    child.kill("SIGKILL");
  });
}

describe("integration: one owner per store folder (real processes)", function () {
  this.timeout(60_000);
  let dir: string;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "hindsight-lock-"));
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map(killed));
    await rm(dir, { recursive: true, force: true });
  });

  it("a second process is refused with STORE_LOCKED naming the owner; after kill -9 the dead owner's lock is taken over", async () => {
    const first = holder(dir, "serve");
    children.push(first.child);
    assert.equal(await first.result, "owner");
    const owner = await liveOwner(dir);
    assert.equal(owner?.pid, first.child.pid);
    assert.equal(owner?.role, "serve");
    assert.equal((await stat(join(dir, LOCK_FILE))).mode & 0o777, 0o600);

    await assert.rejects(OwnerLock.acquire(dir, "cli"), (err: unknown) => {
      assert.ok(HindsightError.is(err, "STORE_LOCKED"));
      assert.match(err.message, new RegExp(`pid ${first.child.pid} \\(serve`));
      return true;
    });

    await killed(first.child);
    assert.equal(await liveOwner(dir), null, "a killed owner's lock counts as nobody's");
    const mine = await OwnerLock.acquire(dir, "cli");
    assert.equal((await liveOwner(dir))?.pid, process.pid);
    await mine.release();
    assert.equal(await liveOwner(dir), null);
  });

  it("eight processes racing for a dead owner's lock: exactly one wins", async () => {
    // A lock left by a process that no longer exists.
    await writeFile(join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 17, hostname: (await import("node:os")).hostname(), processStart: null, role: "serve", since: "2026-01-01T00:00:00.000Z", url: null, tokenFile: null }));
    const racers = Array.from({ length: 8 }, (_, i) => holder(dir, `racer-${i}`));
    children.push(...racers.map((r) => r.child));
    const results = await Promise.all(racers.map((r) => r.result));
    assert.equal(results.filter((r) => r === "owner").length, 1, results.join(", "));
    assert.equal(results.filter((r) => r === "STORE_LOCKED").length, 7, results.join(", "));
    const winner = racers[results.indexOf("owner")]!.child.pid;
    assert.equal((await liveOwner(dir))?.pid, winner);
  });

  it("publish writes the loopback address and a 0600 token file; release leaves a lock it no longer holds alone", async () => {
    const lock = await OwnerLock.acquire(dir, "mcp");
    const token = OwnerLock.newToken();
    await lock.publish("http://127.0.0.1:4567", token);
    const owner = await liveOwner(dir);
    assert.equal(owner?.url, "http://127.0.0.1:4567");
    assert.equal((await readFile(owner!.tokenFile!, "utf8")).trim(), token);
    assert.equal((await stat(owner!.tokenFile!)).mode & 0o777, 0o600);
    await lock.release();
    // Another owner took the folder meanwhile: a late release must not remove its lock.
    const next = await OwnerLock.acquire(dir, "serve");
    await lock.release();
    assert.equal((await liveOwner(dir))?.role, "serve");
    await next.release();
  });
});
