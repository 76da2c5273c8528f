import { strict as assert } from "node:assert";
import { wordDiff } from "../../webview-ui/src/ui/diff.js";

describe("webview: word diff of compression originals against the summary", () => {
  it("marks removed and added words; joining the parts gives back the summary and the originals", () => {
    const before = "Billing deploy 1 shipped 3 migrations.\nBilling deploy 2 shipped 6 migrations.";
    const after = "Billing deploys 1 and 2 shipped 9 migrations.";
    const parts = wordDiff(before, after);
    assert.equal(parts.filter((p) => p.kind !== "removed").map((p) => p.text).join(""), after);
    assert.equal(
      parts.filter((p) => p.kind !== "added").map((p) => p.text).join("").replace(/\s+/g, " "),
      before.replace(/\s+/g, " "),
    );
    assert.ok(parts.some((p) => p.kind === "added" && p.text.includes("deploys")));
    assert.ok(parts.some((p) => p.kind === "removed" && p.text.includes("6")));
  });

  it("treats line breaks between originals as the spaces of the summary", () => {
    assert.deepEqual(wordDiff("a b.\nc d.", "a b. c d."), [{ kind: "same", text: "a b. c d." }]);
  });

  it("falls back to whole texts when the table would be too large", () => {
    const big = Array.from({ length: 3000 }, (_, i) => `w${i}`).join(" ");
    assert.deepEqual(wordDiff(big, `${big} x`).map((p) => p.kind), ["removed", "added"]);
  });
});
