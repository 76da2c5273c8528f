// `npm run bench:activation [-- --runs N]`: starts the real VS Code (runHost.js) N times with only the
// activation test and reports the extension's activation time as p50 / p95 / max over the runs: one
// activation per VS Code start, so a single number says little on a busy machine.
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { percentile } from "../../src/bench/perf.js";

const ROOT = resolve(__dirname, "../../..");

function main(): void {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "10" }, json: { type: "boolean" } } });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs: must be a positive integer");
  const samples: Array<{ activationMs: number; loadAndActivateMs: number }> = [];
  const measured = join(ROOT, "test-results", "host", "measurements.json");
  for (let i = 0; i < runs; i++) {
    // A run that measured nothing must not report the previous run's number.
    rmSync(measured, { force: true });
    execFileSync(process.execPath, [join(ROOT, "out", "test", "host", "runHost.js")], {
      cwd: ROOT,
      env: { ...process.env, HINDSIGHT_HOST_GREP: "activates without opening the store" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const m = JSON.parse(readFileSync(measured, "utf8")) as { activationMs: number; loadAndActivateMs: number };
    samples.push(m);
    process.stderr.write(`run ${i + 1}/${runs}: activate() ${m.activationMs} ms, with loading the bundle ${m.loadAndActivateMs} ms\n`);
  }
  const stats = (xs: number[]) => {
    const sorted = [...xs].sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95), max: sorted[sorted.length - 1] as number };
  };
  const report = { runs, activate: stats(samples.map((s) => s.activationMs)), loadAndActivate: stats(samples.map((s) => s.loadAndActivateMs)), samples };
  if (values.json) console.log(JSON.stringify(report));
  else {
    const line = (name: string, s: { p50: number; p95: number; max: number }) => `${name}: p50 ${s.p50} ms, p95 ${s.p95} ms, max ${s.max} ms`;
    console.log(`over ${runs} VS Code starts — ${line("activate()", report.activate)}; ${line("with loading the bundle", report.loadAndActivate)}`);
  }
}

if (require.main === module) main();
