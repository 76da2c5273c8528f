import { strict as assert } from "node:assert";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { HindsightError } from "../../src/core/errors.js";
import type { SidebarBackendTarget } from "../../src/extension/sidebar/backend.js";
import { MemoryRunHistory } from "../../src/extension/sidebar/history.js";
import { EvalFolderSuites } from "../../src/extension/sidebar/suites.js";
import { requestSchemas, type Method } from "../../src/protocol/requests.js";
import { FakeEmbedder } from "../helpers/fakes.js";
import { evalWorkspace, realEmbedder, SCOPE, seed, startRealServer, type RealServer, type Seeded } from "./fixture.js";
import { ensureWebviewBundle, launchChromium, SidebarPage } from "./harness.js";
import type { ThemeName } from "./themes.js";

// Browser globals inside page callbacks (tests compile without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const document: any;

const THEMES: ThemeName[] = ["light", "dark", "high-contrast"];
const squash = (s: string | null): string => (s ?? "").replace(/\s+/g, " ").trim();
const HOUR = 3_600_000;

describe("sidebar webview: the built bundle in Chromium, through the router, against the real engine over REST", function () {
  this.timeout(120_000);
  let real: RealServer;
  let ids: Seeded;
  let browser: Browser;
  let sp: SidebarPage;
  let page: Page;
  let workspace: string;
  let target: SidebarBackendTarget | null;
  const history = new MemoryRunHistory();

  before(async function () {
    this.timeout(240_000);
    ensureWebviewBundle();
    real = await startRealServer();
    ids = await seed(real.engine, real.clock);
    workspace = await evalWorkspace();
    target = real.target;
    browser = await launchChromium();
    sp = await SidebarPage.open(browser, {
      backend: () => target,
      history,
      suites: new EvalFolderSuites(() => [workspace], async () => join(workspace, "eval", "smoke.json")),
      now: () => real.clock.now(),
      pageTime: real.clock.now(),
      theme: "dark",
    });
    page = sp.page;
  });

  after(async () => {
    await sp?.close();
    await browser?.close();
    await real?.close();
    if (workspace) await rm(workspace, { recursive: true, force: true });
  });

  /** The same state in every theme: test-results/webview/<name>-<theme>.png. */
  async function shoot(name: string): Promise<void> {
    for (const theme of THEMES) {
      await sp.setTheme(theme);
      await sp.screenshot(`${name}-${theme}`);
    }
    await sp.setTheme("dark");
  }

  async function openTab(view: string): Promise<void> {
    await page.locator(`#tab-${view}`).click();
    await page.locator(`#panel-${view}`).waitFor({ state: "visible" });
  }

  async function rowIds(): Promise<string[]> {
    return page.locator(".row.item.loaded").evaluateAll((els) => els.map((e) => (e as unknown as { dataset: { id: string } }).dataset.id));
  }

  async function summaryIs(pattern: RegExp): Promise<void> {
    await page.waitForFunction((src) => new RegExp(src).test((document.querySelector(".summary-line")?.textContent ?? "").replace(/\s+/g, " ").trim()), pattern.source, { timeout: 15_000 });
  }

  /** Waits until the list shows `n` loaded memory rows and no placeholder (pages arrive after the counts). */
  async function rowsAre(n: number): Promise<void> {
    await page.waitForFunction((count) => document.querySelectorAll(".row.item.loaded").length === count && document.querySelector(".row.placeholder") === null, n, { timeout: 15_000 });
  }

  async function openMemory(id: string): Promise<void> {
    await page.locator(`.row.item[data-id="${id}"]`).click();
    await page.locator("hs-memory-detail .detail-heading").waitFor();
  }

  async function backToList(): Promise<void> {
    await page.locator("hs-memory-detail vscode-button.back").click();
    await page.locator(".vlist").waitFor({ state: "visible" });
  }

  describe("Memories", () => {
    it("lists the project's memories grouped by layer and type, every active one a row", async () => {
      await page.locator(".row.item.loaded").first().waitFor();
      await summaryIs(/11 memories/);
      await rowsAre(11);
      const headers = (await page.locator(".row.header .group-title").allTextContents()).map(squash);
      assert.deepEqual(headers, ["L2 episodic · event", "L3 semantic · preference", "L3 semantic · constraint", "L3 semantic · fact"]);
      const counts = (await page.locator(".row.header vscode-badge").allTextContents()).map(squash);
      assert.deepEqual(counts, ["4", "1", "1", "5"]);
      const active = await real.engine.list();
      assert.equal(active.length, 11);
      assert.deepEqual(new Set(await rowIds()), new Set(active.map((m) => m.id)));
      assert.equal(await page.locator('.row.item[data-id] .codicon-pinned').count(), 1, "the pinned constraint shows a pin");
      assert.equal(await page.locator(".row.item .conflict").count(), 2, "both sides of the conflict are flagged");
      assert.equal(await page.locator(".vlist").getAttribute("role"), "tree");
      await shoot("memories");
    });

    it("wraps a long statement to two lines, and its tooltip holds all of it", async () => {
      const content =
        "Logs of the billing service are kept for 30 days in the eu-west bucket, then moved to cold storage for a year; " +
        "access needs the on-call role and every read is audited, so ask the platform team before exporting any of them.";
      const id = (await real.engine.write({ content, type: "constraint", subject: "log retention" })).id as string;
      try {
        await page.locator("vscode-textfield.search input").fill("billing service are kept");
        await summaryIs(/^1 memory matching/);
        await rowsAre(1);
        const main = page.locator(`.row.item[data-id="${id}"] .row-main`);
        assert.equal(await main.getAttribute("title"), content, "the whole statement on hover");
        const box = await main.evaluate((el: { clientHeight: number; scrollHeight: number }) => ({ client: el.clientHeight, scroll: el.scrollHeight }));
        assert.equal(box.client, 34, "two lines of 17 px");
        assert.ok(box.scroll > box.client, `the rest is clamped (${box.scroll} > ${box.client})`);
        const row = await page.locator(`.row.item[data-id="${id}"]`).evaluate((el: { scrollHeight: number; clientHeight: number }) => el.scrollHeight <= el.clientHeight + 2);
        assert.ok(row, "the meta line still fits in the row");
      } finally {
        await real.engine.forget({ id });
        await page.locator("vscode-textfield.search input").fill("");
        await summaryIs(/^11 memories/);
      }
    });

    it("searches content and subject across the whole store", async () => {
      await page.locator("vscode-textfield.search input").fill("pnpm");
      await summaryIs(/^1 memory matching “pnpm”/);
      await rowsAre(1);
      assert.deepEqual(await rowIds(), [ids.pnpm]);
      await page.locator("vscode-textfield.search input").fill("release branch");
      await summaryIs(/^2 memories matching “release branch”/);
      await rowsAre(2);
      assert.deepEqual(new Set(await rowIds()), new Set([ids.mainBranch, ids.trunkBranch]));
      await page.locator("vscode-textfield.search input").fill("");
      await summaryIs(/^11 memories/);
      await rowsAre(11);
    });

    it("filters by status: superseded and quarantined memories appear when asked for", async () => {
      await page.locator("vscode-checkbox.status-quarantined").click();
      await page.locator("vscode-checkbox.status-superseded").click();
      await summaryIs(/^13 memories/);
      await rowsAre(13);
      assert.equal(await page.locator(".row.item .chip.status-quarantined").count(), 1);
      assert.ok((await rowIds()).includes(ids.injection));
      const superseded = await page.locator(".row.item .chip.status-superseded").count();
      assert.equal(superseded, 1, "Jest was superseded by Vitest");
      await page.locator("vscode-checkbox.status-quarantined").click();
      await page.locator("vscode-checkbox.status-superseded").click();
      await summaryIs(/^11 memories/);
      await rowsAre(11);
    });

    it("opens a detail pane with every field, the source L0 turn and the history", async () => {
      await openMemory(ids.flyio);
      const detail = page.locator("hs-memory-detail");
      assert.match(squash(await detail.locator(".detail-heading").textContent()), /Fly\.io/);
      const fields = squash(await detail.locator("dl.fields").textContent());
      for (const label of ["id", "scope", "layer", "type", "subject", "status", "confidence", "source", "created", "updated", "confirmed", "last recalled", "valid until", "pinned", "session", "embedding model"]) {
        assert.ok(fields.includes(label), `field ${label} missing: ${fields}`);
      }
      assert.ok(fields.includes(ids.flyio) && fields.includes("project:webview-demo") && fields.includes("s-42") && fields.includes("Xenova/multilingual-e5-small"), fields);
      assert.equal(squash(await detail.locator(".turns .turn-user").textContent()), "user We deploy the web app to Fly.io every Friday afternoon.");
      assert.match(squash(await detail.locator(".turns .turn-assistant").textContent()), /Noted: Fly\.io deploys on Fridays\./);
      await shoot("detail");
      await backToList();

      await openMemory(ids.trunkBranch);
      const link = detail.locator(".links li").first();
      assert.match(squash(await link.textContent()), /^Conflicts with The release branch is named main\./);
      await link.locator(".link-button").click();
      await page.waitForFunction((id) => (document.querySelector("hs-memory-detail dl.fields")?.textContent ?? "").includes(id), ids.mainBranch);
      await page.locator("hs-memory-detail vscode-button.back").click(); // back to trunk
      await page.waitForFunction((id) => (document.querySelector("hs-memory-detail dl.fields")?.textContent ?? "").includes(id), ids.trunkBranch);
      await backToList();
    });

    it("edits content, confidence and valid_until; a bad value is refused naming the field", async () => {
      await openMemory(ids.postgres);
      const detail = page.locator("hs-memory-detail");
      await detail.locator("vscode-button.edit").click();
      await detail.locator("#edit-confidence input").fill("1.5");
      await detail.locator("vscode-button.save").click();
      const error = detail.locator(".field-error");
      await error.waitFor();
      assert.match(squash(await error.textContent()), /confidence: must be between 0 and 1/);
      assert.equal((await real.engine.get(ids.postgres)).confidence, 0.8, "nothing changed");

      await detail.locator("#edit-content textarea").fill("The API uses PostgreSQL 17 as its main database.");
      await detail.locator("#edit-confidence input").fill("0.95");
      await detail.locator("#edit-valid input").fill("2027-01-31");
      await detail.locator("vscode-button.save").click();
      await page.waitForFunction(() => /Saved \(content, confidence, valid_until\)/.test(document.querySelector("hs-memory-detail .notice")?.textContent ?? ""));
      const m = await real.engine.get(ids.postgres);
      assert.equal(m.content, "The API uses PostgreSQL 17 as its main database.");
      assert.equal(m.confidence, 0.95);
      assert.equal(m.validUntil, Date.parse("2027-01-31"));
      await page.waitForFunction(() => /PostgreSQL 17/.test(document.querySelector("hs-memory-detail .detail-heading")?.textContent ?? ""));
    });

    it("pins and unpins", async () => {
      const detail = page.locator("hs-memory-detail");
      await detail.locator("vscode-button.pin").click();
      await page.waitForFunction(() => document.querySelector("hs-memory-detail vscode-button.pin")?.getAttribute("aria-pressed") === "true");
      assert.equal((await real.engine.get(ids.postgres)).pinned, true);
      await backToList();
      await page.waitForFunction((id) => document.querySelector(`.row.item[data-id="${id}"] .codicon-pinned`) !== null, ids.postgres);
    });

    it("forgets only after confirmation, and the row disappears", async () => {
      await openMemory(ids.pnpm);
      const forget = page.locator("hs-memory-detail hs-confirm.forget");
      await forget.locator("vscode-button.confirm-start").click();
      assert.match(squash(await forget.locator(".confirm-question").textContent()), /Forget this memory/);
      await forget.locator("vscode-button.confirm-cancel").click();
      assert.equal((await real.engine.get(ids.pnpm)).status, "active", "cancel keeps it");
      await forget.locator("vscode-button.confirm-start").click();
      await forget.locator("vscode-button.confirm-yes").click();
      await page.locator(".vlist").waitFor({ state: "visible" });
      await summaryIs(/^10 memories/);
      await rowsAre(10);
      assert.ok(!(await rowIds()).includes(ids.pnpm));
      await assert.rejects(real.engine.get(ids.pnpm), (err: unknown) => HindsightError.is(err, "NOT_FOUND"));
    });

    it("is keyboard navigable: arrows move the active row, Enter opens it, Escape goes back", async () => {
      await page.locator(".vlist").focus();
      await page.keyboard.press("Home");
      await page.keyboard.press("ArrowDown");
      assert.equal(await page.locator(".vlist").getAttribute("aria-activedescendant"), "mem-row-1");
      const id = await page.locator("#mem-row-1").getAttribute("data-id");
      await page.keyboard.press("Enter");
      await page.locator("hs-memory-detail .detail-heading").waitFor();
      assert.ok(squash(await page.locator("hs-memory-detail dl.fields").textContent()).includes(id ?? "?"));
      await page.keyboard.press("Escape");
      await page.locator(".vlist").waitFor({ state: "visible" });
      await page.locator(".vlist").focus();
      await page.keyboard.press("Home");
      await page.keyboard.press("Enter"); // a group header: collapses it
      assert.equal(await page.locator("#mem-row-0").getAttribute("aria-expanded"), "false");
      await page.keyboard.press("ArrowRight");
      assert.equal(await page.locator("#mem-row-0").getAttribute("aria-expanded"), "true");
    });
  });

  describe("Recall playground", () => {
    it("shows the ranked result as the agent gets it: each factor's share of the score, the relevance source, the latency", async () => {
      await openTab("recall");
      await page.locator("#recall-query input").fill("Which database does the API use?");
      await page.locator("vscode-button.run-recall").click();
      await page.locator(".recall-list li").first().waitFor();
      assert.match(squash(await page.locator(".recall-list li .recalled-content").first().textContent()), /PostgreSQL 17/);
      const first = page.locator(".recall-list li").first();
      assert.deepEqual((await first.locator(".factor-name").allTextContents()).map(squash), ["relevance", "confidence", "recency", "use"]);
      const weights = real.engine.config.weights;
      const meters = await first.locator('[role="meter"]').evaluateAll((els) =>
        els.map((e) => {
          const el = e as unknown as { getAttribute(n: string): string };
          return { now: Number(el.getAttribute("aria-valuenow")), max: Number(el.getAttribute("aria-valuemax")) };
        }),
      );
      assert.deepEqual(meters.map((m) => m.max), [weights.relevance, weights.confidence, weights.timeDecay, weights.access], "each bar's cap is the engine's weight, sent through the protocol");
      const score = Number(squash(await first.locator(".score").textContent()));
      const sum = meters.reduce((n, m) => n + m.now, 0);
      assert.ok(Math.abs(sum - score) < 0.006, `the contributions add up to the score: ${sum} vs ${score}`);
      assert.ok(Math.abs(meters[2]!.now - weights.timeDecay) < 1e-9, "a pinned memory does not decay: recency adds its whole weight");
      assert.ok(meters[0]!.now < weights.relevance + 1e-9 && meters[0]!.now > 0.3, "relevance is shown weighted, not as a raw 1.00");
      const factors = await first.locator(".factor").evaluateAll((els) => els.map((e) => (e as unknown as { getAttribute(n: string): string }).getAttribute("title")));
      assert.match(factors[0] ?? "", /^relevance \d\.\d\d × weight 0\.65 = \d\.\d{3}/, "the raw value on hover");
      assert.match(squash(await page.locator(".factor-note").textContent()), /factor × its weight.*scaled per query.*1\.00/);
      const chips = first.locator(".chips");
      assert.equal(squash(await chips.locator(".chip-layer").textContent()), "L3 · long-term");
      assert.equal(squash(await chips.locator(".chip-type").textContent()), "fact");
      assert.equal(squash(await chips.locator(".chip-subject").textContent()), "database");
      assert.equal(squash(await chips.locator(".chip-source").textContent()), "relevance: vector + full text");
      // Four chips, four looks: no two share background, border and text colour.
      const looks = await chips.locator(".chip-layer, .chip-type, .chip-subject, .chip-source").evaluateAll((els) =>
        els.map((e) => {
          const c = (e as unknown as { ownerDocument: { defaultView: { getComputedStyle(x: unknown): Record<string, string> } } }).ownerDocument.defaultView.getComputedStyle(e);
          return `${c.backgroundColor}|${c.borderTopColor}|${c.borderTopStyle}|${c.color}`;
        }),
      );
      assert.equal(new Set(looks).size, 4, looks.join(" / "));
      assert.match(squash(await page.locator(".recall-summary").textContent()), /memor(y|ies) in [\d.]+ (ms|s)/);
      assert.match(await page.locator(".agent-text pre").textContent() ?? "", /PostgreSQL 17/);
      await shoot("recall");
    });

    it("reports conflicts among the recalled memories", async () => {
      await page.locator("#recall-query input").fill("What is the release branch named?");
      await page.locator("vscode-button.run-recall").click();
      await page.locator(".conflict-box").waitFor();
      const box = squash(await page.locator(".conflict-box").textContent());
      assert.match(box, /1 unresolved conflict: “The release branch is named (trunk|main)\.” and “The release branch is named (trunk|main)\.” disagree, and hindsight cannot tell which is current/);
      assert.doesNotMatch(box, /tie window/);
      assert.equal(await page.locator(".recalled.in-conflict").count(), 2);
    });

    it("says when relevance came from full text alone (a model that cannot read Chinese)", async () => {
      // A server whose embedding model reads English only (the tests' hashing embedder has MiniLM's profile).
      const english = await startRealServer(new FakeEmbedder());
      try {
        await english.engine.write({ content: "我们的主数据库是PostgreSQL 16。", type: "fact", subject: "数据库" });
        target = english.target;
        sp.router.sendSession();
        await page.locator("#recall-query input").fill("主数据库用的是什么？");
        await page.locator("vscode-button.run-recall").click();
        await page.waitForFunction(() => /PostgreSQL 16/.test(document.querySelector(".recall-list .recalled-content")?.textContent ?? ""), undefined, { timeout: 15_000 });
        const source = page.locator(".recall-list li").first().locator(".chip-source");
        assert.equal(squash(await source.textContent()), "relevance: full text only");
        assert.match((await source.getAttribute("title")) ?? "", /cannot read this query or memory/);
        assert.match(squash(await page.locator(".recall-summary").textContent()), /relevance: full text only/);
        assert.doesNotMatch(squash(await page.locator(".recall-list").textContent()), /vector/);
        await shoot("recall-full-text");
      } finally {
        target = real.target;
        sp.router.sendSession();
        await english.close();
      }
    });
  });

  describe("Review", () => {
    it("shows the conflict, the compression proposal with its diff, and the quarantined write", async () => {
      await openTab("review");
      await page.locator(".conflict-card").waitFor();
      assert.equal(await page.locator(".conflict-card").count(), 1);
      const card = page.locator(".conflict-card");
      assert.equal(squash(await card.locator(".conflict-title").textContent()), "“The release branch is named trunk.” or “The release branch is named main.”", "titled by the two statements, not the subject");
      assert.equal(
        squash(await card.locator(".conflict-why").textContent()),
        "Both say something different about “release branch”, 20 seconds apart, with the same confidence — hindsight cannot tell which is current.",
      );
      assert.match(squash(await card.textContent()), /Newer .* The release branch is named trunk\. Keep this one Older .* The release branch is named main\. Keep this one/);
      assert.equal(
        await card.locator("vscode-button.keep-newer").getAttribute("title"),
        "Keep “The release branch is named trunk.”: “The release branch is named main.” is marked replaced — kept as history, no longer recalled.",
      );
      assert.match((await card.locator("vscode-button.keep-both").getAttribute("title")) ?? "", /stay active and are no longer reported as a conflict/);
      assert.doesNotMatch(squash(await page.locator("hs-review").textContent()), /tie window/);
      const proposal = page.locator(`.proposal-card[data-id="${ids.proposal}"]`);
      assert.match(squash(await proposal.locator(".originals summary").textContent()), /4 original memories/);
      const diff = squash(await proposal.locator(".diff-text").textContent());
      for (let i = 1; i <= 4; i++) assert.ok(diff.includes(`${i * 3} migrations`), diff);
      const summary = (await real.engine.listProposals({ statuses: ["pending"] }))[0]!.summary;
      const marks = await proposal.locator("ins.diff-added, del.diff-removed").count();
      const originals = (await Promise.all(ids.deploys.map((id) => real.engine.get(id)))).map((m) => m.content).join(" ");
      // The offline summarizer is extractive: when it keeps every word, the diff says so instead of marking nothing.
      if (squash(summary) === squash(originals)) assert.equal(await proposal.locator(".diff-same").count(), 1);
      else assert.ok(marks > 0, "the diff marks what differs");
      assert.match(squash(await page.locator(`.quarantine-card[data-id="${ids.injection}"] .reason`).textContent()), /injection|instruction/i);
      await shoot("review");
    });

    it("resolves a conflict: keep newer supersedes the older one", async () => {
      await page.locator(".conflict-card vscode-button.keep-newer").click();
      await page.waitForFunction(() => /No unresolved conflicts/.test(document.querySelector("hs-review")?.textContent ?? ""));
      assert.equal((await real.engine.get(ids.trunkBranch)).status, "active");
      const older = await real.engine.get(ids.mainBranch);
      assert.equal(older.status, "superseded");
      assert.equal(older.supersededBy, ids.trunkBranch);
      assert.deepEqual(await real.engine.conflicts(), []);
    });

    it("approves a proposal: the summary replaces the originals, and it can be rolled back", async () => {
      await page.locator(`.proposal-card[data-id="${ids.proposal}"] vscode-button.approve`).click();
      await page.locator(`.proposal-card[data-id="${ids.proposal}"] hs-confirm.rollback`).waitFor();
      const [approved] = await real.engine.listProposals({ statuses: ["approved"] });
      assert.equal(approved?.id, ids.proposal);
      for (const id of ids.deploys) assert.equal((await real.engine.get(id)).status, "archived");
      assert.equal((await real.engine.get(approved!.summaryId!)).status, "active");
    });

    it("releases a quarantined write", async () => {
      await page.locator(`.quarantine-card[data-id="${ids.injection}"] vscode-button.release`).click();
      await page.waitForFunction(() => /Nothing in quarantine/.test(document.querySelector("hs-review")?.textContent ?? ""));
      const m = await real.engine.get(ids.injection);
      assert.equal(m.status, "active");
      assert.match(m.statusReason ?? "", /^released by token:/);
    });

    it("the Memories tab reloads after the review decisions (the router invalidates it)", async () => {
      await openTab("memories");
      // 10 before; + summary + released − main (superseded) − 4 deploys (archived) = 7
      await summaryIs(/^7 memories/);
    });
  });

  describe("Tests", () => {
    it("runs the workspace's eval suite with one click: pass/fail per category, expected vs got", async () => {
      await openTab("tests");
      await page.locator(".suite").first().waitFor();
      assert.deepEqual((await page.locator(".suite .suite-label").allTextContents()).map(squash), ["eval/smoke.json"], "the baseline file is not a suite");
      await page.locator(".suite vscode-button.run-suite").click();
      await page.locator(".run-summary").waitFor({ timeout: 60_000 });
      assert.match(squash(await page.locator(".run-summary").textContent()), /eval\/smoke\.json: 1\/2 passed, 1 failed/);
      const rows = await page.locator("table.categories tbody tr").evaluateAll((trs) =>
        trs.map((tr) => `${(tr as unknown as { className: string }).className}:${(tr as unknown as { textContent: string }).textContent.replace(/\s+/g, " ").trim()}`),
      );
      assert.deepEqual(rows, ["fail:supersede 0/1", "pass:basics 1/1"]);
      const failure = page.locator(".failure");
      assert.match(squash(await failure.locator(".failure-title").textContent()), /deliberately-failing supersede/);
      assert.match(squash(await failure.locator("dd.expected").textContent()), /"mocha"/);
      assert.match(squash(await failure.locator("dd.got").textContent()), /Jest/);
    });

    it("keeps the pass-rate history and draws it", async () => {
      await page.locator("vscode-button.run-file").click(); // the picker returns the same file
      await page.waitForFunction(() => document.querySelectorAll("hs-tests .chart-dot").length === 2, undefined, { timeout: 60_000 });
      assert.equal((await history.list()).length, 2);
      assert.match((await page.locator("hs-tests .chart svg").getAttribute("aria-label")) ?? "", /Pass rate of .* over the last 2 runs: from 50% to 50%/);
      await shoot("tests");
    });
  });

  describe("Activity", () => {
    it("shows counts per layer, type and status, recall latency and the audit log", async () => {
      await openTab("activity");
      await page.locator(".audit-entry").first().waitFor();
      const stats = await real.engine.stats();
      assert.match(squash(await page.locator(".stat-line").first().textContent()), new RegExp(`${stats.total} stored · ${stats.byStatus.active} active`));
      assert.match(squash(await page.locator("#h-latency + .stat-line").textContent()), /2 recalls · p50 [\d.]+ (ms|s) · p95/);
      assert.match(squash(await page.locator(".stat-since").textContent()), /Every recall from this store since .*each point is one hour with recalls/);
      const audit = squash(await page.locator(".audit").textContent());
      assert.match(audit, /conflict resolved/);
      assert.match(audit, /approved compression/);
      assert.ok(!audit.includes("Ignore previous instructions"), "the audit log never shows content");
    });

    it("draws the store's recall history by hour, the same for every client and after a restart", async () => {
      // Recalls by another client (an agent through REST), an hour and two hours later.
      for (const hours of [1, 2]) {
        real.clock.advance(HOUR);
        for (let i = 0; i < hours; i++) await real.engine.recall({ query: "Which database does the API use?" });
      }
      await page.locator("hs-activity").evaluate((el: { invalidate(): void }) => el.invalidate());
      await page.waitForFunction(() => document.querySelectorAll("hs-activity circle.chart-dot.tone-blue").length === 3, undefined, { timeout: 15_000 });
      assert.match(squash(await page.locator("#h-latency + .stat-line").textContent()), /^5 recalls/);
      assert.match((await page.locator("hs-activity .chart svg").getAttribute("aria-label")) ?? "", /over 3 hours with recalls/);
      // A restarted owner on the same store reports the same history.
      const before = (await real.engine.stats()).recall;
      await real.engine.flush();
      const { MemoryEngine } = await import("../../src/core/engine.js");
      const { LanceStore } = await import("../../src/stores/lancedb/lanceStore.js");
      const other = new MemoryEngine({ store: new LanceStore({ dir: join(real.dir, "store") }), embedder: realEmbedder(), clock: real.clock }, { defaultScope: SCOPE });
      await other.open();
      try {
        const after = (await other.stats()).recall;
        assert.equal(after.count, before.count);
        assert.deepEqual(after.history, before.history);
      } finally {
        await other.close();
      }
      await shoot("activity");
    });
  });

  describe("server changes and protocol", () => {
    it("shows when no server runs, and reloads when one is back (team mode uses the same path)", async () => {
      target = null;
      sp.router.sendSession();
      await page.locator(".backend-down").waitFor();
      await page.waitForFunction(() => document.querySelector("hs-activity .error-banner") !== null);
      target = { ...real.target, mode: "team" };
      sp.router.sendSession();
      await page.waitForFunction(() => /team server/.test(document.querySelector(".backend-line")?.textContent ?? ""));
      await page.waitForFunction(() => document.querySelector("hs-activity .error-banner") === null && document.querySelector(".backend-down") === null);
      assert.ok((await page.locator(".audit-entry").count()) > 0);
    });

    it("answered every request exactly once, with results matching the protocol's schemas", async () => {
      const requests = sp.sent.filter((m): m is { type: "request"; id: number; method: Method } => (m as { type?: string }).type === "request");
      assert.ok(requests.length > 20, `only ${requests.length} requests`);
      for (const r of requests) {
        const answers = sp.received.filter((m) => m.type === "response" && m.id === r.id);
        assert.equal(answers.length, 1, `request ${r.id} (${r.method}) got ${answers.length} responses`);
        const answer = answers[0]!;
        if (answer.type !== "response") continue;
        if (answer.ok) {
          const parsed = requestSchemas[r.method].result.safeParse(answer.result);
          assert.ok(parsed.success, `${r.method}: ${parsed.success ? "" : parsed.error.message}`);
        } else {
          const expected = (r.method === "memories.edit" && answer.error.field === "patch.confidence") || answer.error.code === "BACKEND_UNAVAILABLE";
          assert.ok(expected, `${r.method} failed: ${answer.error.message}`);
        }
      }
    });

    it("ran under the strict CSP without a violation or a page error", async () => {
      assert.deepEqual(await sp.cspViolations(), []);
      assert.deepEqual(sp.pageErrors, []);
      assert.deepEqual(
        sp.consoleErrors.filter((e) => !/favicon/.test(e)),
        [],
      );
    });
  });
});
