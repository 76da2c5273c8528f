#!/usr/bin/env node
// Packs the CLI as the scoped npm package people install outside this checkout
// (`npx -y @judged-memory/hindsight …`; the binary is still `hindsight`): the esbuild bundle, its
// launcher, and as dependencies only the runtime packages the bundle leaves external (esbuild.js).
// Writes dist-cli/judged-memory-hindsight-<version>.tgz; `npm publish <tgz>` publishes it.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

export const PACKAGE = "@judged-memory/hindsight";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const out = join(root, "dist-cli");
const stage = join(out, "stage");

execFileSync(process.execPath, [join(root, "esbuild.js"), "--production"], { cwd: root, stdio: "inherit" });
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, "dist"), { recursive: true });
cpSync(join(root, "bin"), join(stage, "bin"), { recursive: true });
cpSync(join(root, "dist", "cli.js"), join(stage, "dist", "cli.js"));
cpSync(join(root, "LICENSE"), join(stage, "LICENSE"));
writeFileSync(join(stage, "README.md"), readFileSync(join(root, "docs", "user", "CLI.md"), "utf8"));
writeFileSync(
  join(stage, "package.json"),
  `${JSON.stringify(
    {
      name: PACKAGE,
      version: pkg.version,
      description: "The hindsight CLI and MCP server: a judged project memory for coding agents, on your machine.",
      license: pkg.license,
      repository: pkg.repository,
      bin: { hindsight: "bin/hindsight.js" },
      files: ["bin", "dist/cli.js", "README.md", "LICENSE"],
      engines: { node: pkg.engines.node },
      // What the bundle requires at run time; everything else is inside dist/cli.js.
      dependencies: pkg.dependencies,
    },
    null,
    2,
  )}\n`,
);
const tgz = execFileSync("npm", ["pack", "--pack-destination", out, "--silent"], { cwd: stage, encoding: "utf8" }).trim().split("\n").pop();
console.log(join(out, tgz));
