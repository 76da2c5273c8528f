import { strict as assert } from "node:assert";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { MementoRunHistory, type MementoLike } from "../../../src/extension/sidebar/history.js";
import { newNonce, sidebarHtml } from "../../../src/extension/sidebar/html.js";
import { EvalFolderSuites, SUITE_MAX_BYTES } from "../../../src/extension/sidebar/suites.js";
import { withTempDir } from "../../helpers/fakes.js";

class MapMemento implements MementoLike {
  readonly data = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.parse(JSON.stringify(value)));
  }
}

describe("protocol: extension side of the sidebar (html, history, suites)", () => {
  it("builds the page with a strict CSP: the nonce'd module script only, no inline code or styles, no connections", () => {
    const nonce = newNonce();
    const html = sidebarHtml({ cspSource: "https://x.vscode-cdn.net", nonce, scriptUri: "https://x/main.js?a=1&b=2", styleUri: "https://x/main.css", codiconUri: "https://x/codicon.css" });
    const csp = /content="([^"]+)"/.exec(html)![1]!.replace(/&#39;|&quot;/g, "'");
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, new RegExp(`script-src 'nonce-${nonce.replace(/[+/]/g, (c) => `\\${c}`)}'(;|$)`));
    assert.match(csp, /style-src https:\/\/x\.vscode-cdn\.net 'nonce-/);
    assert.match(csp, /connect-src 'none'/);
    assert.ok(!/unsafe-inline|unsafe-eval/.test(csp), csp);
    assert.ok(html.includes('src="https://x/main.js?a=1&amp;b=2"'), "URIs are escaped");
    assert.ok(html.includes('id="vscode-codicon-stylesheet"'), "codicons for @vscode-elements' icons");
    assert.equal((html.match(/<script/g) ?? []).length, 1);
    assert.notEqual(newNonce(), nonce);
    assert.match(nonce, /^[A-Za-z0-9+/]{22}==$/);
  });

  it("keeps the last runs in a memento and drops entries it cannot read", async () => {
    const memento = new MapMemento();
    memento.data.set("k", [{ suiteId: "a", label: "a", at: 1, passed: 1, failed: 0 }, { bogus: true }]);
    const history = new MementoRunHistory(memento, "k", 3);
    assert.equal((await history.list()).length, 1);
    for (let i = 2; i <= 5; i++) await history.add({ suiteId: "a", label: "a", at: i, passed: i, failed: 1 });
    assert.deepEqual((await history.list()).map((e) => e.at), [3, 4, 5]);
    memento.data.set("k", "garbage");
    assert.deepEqual(await history.list(), []);
  });

  it("offers the cases files of each root's eval/ folder, not baselines or other JSON", async () => {
    await withTempDir(async (dir) => {
      const a = join(dir, "a");
      const b = join(dir, "b");
      for (const root of [a, b]) await mkdir(join(root, "eval"), { recursive: true });
      await writeFile(join(a, "eval", "cases.json"), JSON.stringify({ version: 1, cases: [{}, {}] }));
      await writeFile(join(a, "eval", "baseline.json"), JSON.stringify({ passed: 1, total: 2 }));
      await writeFile(join(a, "eval", "broken.json"), "{");
      await writeFile(join(a, "eval", "notes.txt"), "cases");
      await writeFile(join(b, "eval", "big.json"), JSON.stringify({ cases: [], pad: "x".repeat(SUITE_MAX_BYTES) }));
      const suites = new EvalFolderSuites(() => [a, b, join(dir, "missing")]);
      assert.deepEqual(await suites.list(), [{ id: join(a, "eval", "cases.json"), label: "a/eval/cases.json", path: join(a, "eval", "cases.json"), cases: 2 }]);
      assert.deepEqual((await new EvalFolderSuites(() => [a]).list()).map((s) => s.label), ["eval/cases.json"]);
      await assert.rejects(suites.read(join(b, "eval", "big.json")), /at most 2 MiB/);
    });
  });
});
