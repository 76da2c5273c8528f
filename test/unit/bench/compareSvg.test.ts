import * as assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import { barChart } from "../../../src/bench/compare/svg.js";
import { launchBrowser, parseSvg } from "./svgDom.js";

describe("bench compare: SVG bar charts", function () {
  this.timeout(60_000);
  let browser: Browser;

  before(async () => {
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it("is well-formed SVG with one series group per system, bars scaled to their values, and n/a for missing values", async () => {
    const svg = barChart({
      title: "Recall <per> category & system",
      groups: ["multi-hop", "temporal", "overall"],
      series: [
        { name: "hindsight", values: [0.5, 0.8, 0.7] },
        { name: "server-memory", values: [0, null, 0.1] },
      ],
      yLabel: "recall@10",
      yMax: 1,
      format: (v) => v.toFixed(2),
      valueLabels: true,
    });
    const p = await parseSvg(browser, svg);
    assert.equal(p.error, null, p.error ?? "");
    assert.equal(p.root, "svg");
    assert.equal(p.namespace, "http://www.w3.org/2000/svg");
    assert.equal(p.title, "Recall <per> category & system", "the title is escaped, not broken");
    assert.deepEqual(p.series, ["hindsight", "server-memory"]);
    assert.deepEqual(p.legend, ["hindsight", "server-memory"]);
    assert.deepEqual(p.bars.hindsight!.map((b) => [b.group, b.value]), [["multi-hop", 0.5], ["temporal", 0.8], ["overall", 0.7]]);
    assert.deepEqual(p.missing["server-memory"], ["temporal"], "null is drawn as n/a, not as a bar");
    const h = Object.fromEntries(p.bars.hindsight!.map((b) => [b.group, b.height]));
    assert.ok(h.temporal! > h.overall! && h.overall! > h["multi-hop"]!, `heights follow values: ${JSON.stringify(h)}`);
    assert.ok(Math.abs(h.temporal! / h["multi-hop"]! - 0.8 / 0.5) < 0.02, "linear scale: heights are proportional");
    const zero = p.bars["server-memory"]!.find((b) => b.group === "multi-hop")!;
    assert.ok(zero.height > 0 && zero.height < 3, "a zero is a visible sliver");
    assert.deepEqual(p.ticks.slice(0, 6), ["0.00", "0.20", "0.40", "0.60", "0.80", "1.00"], "axis from 0 to yMax");
  });

  it("a log scale has decade ticks and keeps the order of values across decades", async () => {
    const svg = barChart({
      title: "Recall latency p95",
      groups: ["1k memories", "10k memories"],
      series: [
        { name: "a & b", values: [2, 400] },
        { name: "c", values: [15, 30] },
      ],
      yLabel: "ms",
      scale: "log",
    });
    const p = await parseSvg(browser, svg);
    assert.equal(p.error, null, p.error ?? "");
    assert.deepEqual(p.series, ["a & b", "c"]);
    assert.deepEqual(p.ticks, ["1", "2", "5", "10", "20", "50", "100", "200", "500"], "1-2-5 steps from the decade below the smallest to the first above the largest");
    const heights = [...p.bars["a & b"]!, ...p.bars.c!].sort((x, y) => x.value - y.value).map((b) => b.height);
    assert.deepEqual(heights, [...heights].sort((x, y) => x - y), "bigger value, taller bar");
    assert.ok(heights[3]! / heights[0]! < 10, "log scale compresses a 200x range");
  });
});
