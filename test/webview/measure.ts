// First paint and scrolling of the Memories list with 10,000 memories: the built webview in headless
// Chromium, through the router and REST, on a real LanceDB store. A measurement, not a test: it
// prints numbers and asserts nothing about time.
//
//   npm run build && npm run compile-tests && node out/test/webview/measure.js [--n 10000] [--fake-embedder]
//
// --fake-embedder seeds with the tests' hashing embedder instead of the real model (seeding 10k
// memories with the real model takes about a minute on two cores; the list never embeds).
import type { WriteInput } from "../../src/core/model/inputs.js";
import { MemoryRunHistory } from "../../src/extension/sidebar/history.js";
import { EvalFolderSuites } from "../../src/extension/sidebar/suites.js";
import { FakeEmbedder } from "../helpers/fakes.js";
import { realEmbedder, startRealServer } from "./fixture.js";
import { ensureWebviewBundle, launchChromium, SidebarPage } from "./harness.js";

// Browser globals inside page callbacks (tests compile without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any, requestAnimationFrame: any;

const HOUR = 3_600_000;

const TYPES = ["fact", "fact", "fact", "fact", "preference", "preference", "constraint", "event", "event", "event", "task_state"] as const;
const REGIONS = ["eu-west-1", "us-east-2", "ap-south-1", "eu-central-1", "sa-east-1"];

function memory(i: number): WriteInput {
  const type = TYPES[i % TYPES.length]!;
  const svc = `service-${i % 397}`;
  const text: Record<(typeof TYPES)[number], string> = {
    fact: `The ${svc} API runs on port ${3000 + (i % 1000)} in ${REGIONS[i % REGIONS.length]} and is owned by team ${i % 23}.`,
    preference: `The user prefers ${i % 2 === 0 ? "tabs" : "spaces"} in ${svc} and reviews pull requests in the morning (note ${i}).`,
    constraint: `Never deploy ${svc} on a Friday without a rollback plan (rule ${i}).`,
    event: `Deploy ${i} of ${svc} shipped ${i % 17} migrations to ${REGIONS[i % REGIONS.length]}.`,
    task_state: `Step ${i % 5} of 5 of the ${svc} migration is done.`,
  };
  return { content: text[type], type, subject: svc, confidence: 0.6 + (i % 4) * 0.1 };
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const ms = (x: number): string => `${x.toFixed(0)} ms`;
const q = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? NaN;
};

async function main(): Promise<void> {
  const n = Number(arg("--n") ?? "10000");
  const fake = process.argv.includes("--fake-embedder");
  ensureWebviewBundle();
  const real = await startRealServer(fake ? new FakeEmbedder() : realEmbedder());
  const browser = await launchChromium();
  try {
    let t = performance.now();
    const chunk = 500;
    for (let i = 0; i < n; i += chunk) {
      await real.engine.importMemories(Array.from({ length: Math.min(chunk, n - i) }, (_, j) => memory(i + j)));
      real.clock.advance(HOUR);
    }
    const seeded = performance.now() - t;
    console.log(`seeded ${n} memories (${fake ? "fake" : "real"} embedder, LanceDB) in ${ms(seeded)}`);

    // First paint: navigation start → the first memory rows are in the DOM (a performance mark the app sets).
    const runs: Array<Record<string, number>> = [];
    for (let run = 0; run < 3; run++) {
      t = performance.now();
      const sp = await SidebarPage.open(browser, {
        backend: () => real.target,
        history: new MemoryRunHistory(),
        suites: new EvalFolderSuites(() => []),
        now: () => real.clock.now(),
        theme: "dark",
      });
      await sp.page.waitForFunction(() => performance.getEntriesByName("hindsight:first-rows").length > 0, undefined, { timeout: 120_000 });
      const wall = performance.now() - t;
      const marks = await sp.page.evaluate(() => ({
        firstRows: performance.getEntriesByName("hindsight:first-rows")[0]!.startTime,
        scriptStart: performance.getEntriesByName("hindsight:script-start")[0]?.startTime ?? NaN,
        fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
      }));
      const timing = requestTimes(sp);
      runs.push({ wall, ...marks, groupsMs: timing["memories.groups"]?.[0] ?? NaN, pageMs: timing["memories.page"]?.[0] ?? NaN });
      console.log(
        `first paint, load ${run + 1}: first rows ${ms(marks.firstRows)} after navigation start (script ${ms(marks.scriptStart)}, first contentful paint ${ms(marks.fcp)}; ` +
          `memories.groups ${ms(runs[run]!.groupsMs!)}, first memories.page ${ms(runs[run]!.pageMs!)}; open() to rows ${ms(wall)})`,
      );
      if (run < 2) await sp.close();
      else await scroll(sp, n);
    }
  } finally {
    await browser.close();
    await real.close();
  }
}

/** Round trip per method (ms), from the webview's request to the router's response, in order. */
function requestTimes(sp: SidebarPage): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const s of sp.timeline) {
    if (s.dir !== "in" || (s.message as { type?: string }).type !== "request") continue;
    const req = s.message as { id: number; method: string };
    const res = sp.timeline.find((r) => r.dir === "out" && (r.message as { type?: string; id?: number }).type === "response" && (r.message as { id: number }).id === req.id);
    if (res) (out[req.method] ??= []).push(res.at - s.at);
  }
  return out;
}

async function scroll(sp: SidebarPage, n: number): Promise<void> {
  const page = sp.page;
  // 1. Cold jumps (no page loaded there yet): time until every visible row has its data.
  const jump = async (where: "middle" | "end") =>
    page.evaluate(async (to) => {
      const list = document.querySelector(".vlist");
      const started = performance.now();
      list.scrollTop = to === "middle" ? list.scrollHeight / 2 : list.scrollHeight;
      for (;;) {
        await new Promise((r) => requestAnimationFrame(r));
        // The row at the new scroll position is rendered (not the old window) and nothing in view is a placeholder.
        const here = document.querySelector(`#mem-row-${Math.floor(list.scrollTop / 58) + 1}`); // ROW_H of views/memories.ts
        if (here && !here.classList.contains("placeholder") && document.querySelectorAll(".row.placeholder").length === 0) break;
      }
      return performance.now() - started;
    }, where);
  const middle = await jump("middle");
  const end = await jump("end");
  // 2. Flick through the whole list, one viewport per animation frame: frame times while rows are placeholders.
  const fling = await page.evaluate(async () => {
    const list = document.querySelector(".vlist");
    const frames: number[] = [];
    const domRows: number[] = [];
    let last = performance.now();
    list.scrollTop = 0;
    while (list.scrollTop + list.clientHeight < list.scrollHeight - 1) {
      list.scrollTop += list.clientHeight;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
      domRows.push(document.querySelectorAll(".row").length);
    }
    return { frames, maxDomRows: Math.max(...domRows), height: list.scrollHeight };
  });
  // 3. Smooth scrolling, as a wheel does: 120 px per frame over loaded rows.
  const smooth = await page.evaluate(async () => {
    const list = document.querySelector(".vlist");
    list.scrollTop = list.scrollHeight / 2;
    await new Promise((r) => setTimeout(r, 500));
    const frames: number[] = [];
    let last = performance.now();
    for (let i = 0; i < 120; i++) {
      list.scrollTop += 120;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    return frames;
  });
  const pages = requestTimes(sp)["memories.page"] ?? [];
  console.log(`scroll (${n} memories, ${(fling.height / 1000).toFixed(0)}k px tall list, at most ${fling.maxDomRows} rows in the DOM):`);
  console.log(`  fling, one viewport per frame over ${fling.frames.length} frames: frame p50 ${ms(q(fling.frames, 0.5))}, p95 ${ms(q(fling.frames, 0.95))}, max ${ms(Math.max(...fling.frames))}`);
  console.log(`  wheel-like, 120 px per frame: frame p50 ${ms(q(smooth, 0.5))}, p95 ${ms(q(smooth, 0.95))}, max ${ms(Math.max(...smooth))}`);
  console.log(`  jump to the middle: rows filled in ${ms(middle)}; to the end: ${ms(end)}`);
  console.log(`  memories.page round trips (${pages.length} pages of 100): p50 ${ms(q(pages, 0.5))}, p95 ${ms(q(pages, 0.95))}`);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
