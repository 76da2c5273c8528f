import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childEnv, ROOT } from "../helpers/cliProcess.js";

/**
 * The package people install outside this checkout: `npm run pack:cli` makes the tarball; installed
 * into a folder that has nothing to do with this checkout (its dependencies linked in, as npm would
 * install them), its `hindsight` binary remembers and recalls with the real model on a real store.
 */
describe("the published CLI package (@judged-memory/hindsight)", function () {
  this.timeout(180_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "hindsight-pkg-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("is the scoped package with the hindsight binary, and works from an unrelated folder", () => {
    const tgz = execFileSync(process.execPath, [join(ROOT, "tools", "pack-cli.mjs")], { cwd: ROOT, encoding: "utf8" }).trim().split("\n").pop()!;
    const installed = join(dir, "prefix", "node_modules", "@judged-memory", "hindsight");
    mkdirSync(installed, { recursive: true });
    execFileSync("tar", ["-xzf", tgz, "-C", installed, "--strip-components=1"]);
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { name: string; bin: Record<string, string>; dependencies: Record<string, string> };
    assert.equal(manifest.name, "@judged-memory/hindsight");
    assert.deepEqual(manifest.bin, { hindsight: "bin/hindsight.js" });
    // Every package the bundle leaves external is a declared dependency, or one of theirs.
    const external = /const external = \[([^\]]*)\]/.exec(readFileSync(join(ROOT, "esbuild.js"), "utf8"))![1]!.match(/"[^"]+"/g)!.map((s) => s.slice(1, -1));
    const transformers = JSON.parse(readFileSync(join(ROOT, "node_modules", "@huggingface", "transformers", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    for (const e of external) assert.ok(e in manifest.dependencies || e in transformers.dependencies, `${e} is external but not a dependency`);
    // npm would install the dependencies beside it; here they are linked from this checkout's node_modules.
    // npm would install the declared dependencies beside it; here they are linked from this checkout's
    // node_modules (a linked package finds its own dependencies where it really lives, as installed ones do).
    for (const name of Object.keys(manifest.dependencies)) {
      mkdirSync(join(dir, "prefix", "node_modules", name, ".."), { recursive: true });
      symlinkSync(join(ROOT, "node_modules", name), join(dir, "prefix", "node_modules", name));
    }
    const elsewhere = join(dir, "some-project");
    mkdirSync(elsewhere);
    const bin = join(installed, "bin", "hindsight.js");
    const run = (...args: string[]): string => execFileSync(process.execPath, [bin, ...args], { cwd: elsewhere, env: childEnv(join(dir, "home")), encoding: "utf8" });
    assert.match(run("--help"), /hindsight mcp/);
    run("remember", "The staging database runs PostgreSQL 16.", "--no-daemon");
    assert.match(run("recall", "Which database does staging run?", "--no-daemon"), /PostgreSQL 16/);
  });
});
