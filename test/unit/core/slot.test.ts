import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import { sameTask } from "../../../src/core/write/reconcile.js";
import { isAdditive, oldValues, sameSlot, subjectNamesSlot, valueReplacedByPhrase, valueTokens } from "../../../src/core/write/slot.js";
import { turnIsNoise, extractRules } from "../../../src/core/write/extract.js";

const opts = { now: Date.parse("2026-10-01T09:00:00Z"), speaker: null, maxMemoryChars: 240, defaultConfidence: 0.8 };
const { rules, taskFrameSimilarity } = resolveConfig().write;

describe("slots: the thing plus the attribute, values masked", () => {
  it("only values differ: same slot", () => {
    assert.ok(sameSlot("The wiki is hosted on Outline.", "The wiki is hosted on BookStack."));
    assert.ok(sameSlot("The thumbnail worker runs 6 replicas.", "The thumbnail worker runs 2 replicas."));
    assert.ok(sameSlot("文档站用 Docsify 搭建。", "文档站用 VitePress 搭建。"));
    assert.ok(sameSlot("The user prefers aisle seats.", "The user prefers window seats."), "one word each, a one-object verb");
  });

  it("another attribute of the same thing, or a many-valued verb: not the same slot", () => {
    assert.equal(sameSlot("The wiki is hosted on Outline.", "The wiki is backed up every night."), null);
    assert.equal(sameSlot("The search API returns results in pages of 50.", "The search API rejects queries longer than 200 characters."), null);
    assert.equal(sameSlot("The user likes climbing.", "The user likes pottery."), null, "a person likes many things");
    assert.equal(sameSlot("Mara works at Figma.", "Tomas works at Canva."), null, "different people: only the verb is shared");
  });

  it("a value replaced by a longer phrase holding another value is only evidence of a possible conflict", () => {
    assert.ok(valueReplacedByPhrase("The nightly export job writes its files to MinIO in the basement rack.", "The nightly export job writes its files to S3."));
    assert.ok(valueReplacedByPhrase("The mobile app talks to the gateway over gRPC on port 9443.", "The mobile app talks to the gateway over REST."));
    assert.equal(valueReplacedByPhrase("The queue is hosted in Frankfurt.", "The queue keeps messages for 7 days."), false, "another attribute: the old side is not only a value");
    assert.equal(valueReplacedByPhrase("The team uses Linear for planning.", "The team uses Jira."), false, "a many-valued verb");
    assert.equal(valueReplacedByPhrase("The queue is hosted in a second region as well.", "The queue is hosted in Frankfurt."), false, "no value where the old one was");
  });

  it("values: numbers, versions, code-like names, capitalised names inside a sentence, Latin words in Chinese", () => {
    const v = valueTokens("The parser uses tree_sitter 0.22 and Nom.");
    // In content-token space, as the engine compares them: "tree_sitter" → tree, sitter; "0.22" → 0, 22.
    assert.ok(v.has("sitter") && v.has("22") && v.has("nom"), [...v].join(","));
    assert.ok(valueTokens("缓存用 Valkey 做").has("valkey"));
    assert.ok(!valueTokens("The parser is fast.").has("parser"));
  });

  it("a statement that names the value it replaces, in its different forms", () => {
    const cases: Array<[string, string]> = [
      ["The linter went from ESLint to Biome.", "eslint"],
      ["pnpm → bun for installs", "pnpm"],
      ["We no longer deploy on Heroku.", "heroku"],
      ["Indent with tabs instead of spaces.", "space"],
      ["Staging terminates TLS with Caddy in place of nginx.", "nginx"],
      ["Payroll is paid by transfer in lieu of cheques.", "cheque"],
      ["We replaced Jenkins with Buildkite.", "jenkin"],
      ["Sentry is no longer used for tracing.", "sentry"],
      ["构建从 Maven 改成了 Gradle。", "maven"],
      ["我们不再用 Jira 了。", "jira"],
      ["订单库 Oracle 已经换成 PostgreSQL 了。", "oracle"],
    ];
    for (const [text, old] of cases) assert.ok(oldValues(text).some((v) => v.includes(old)), `${text} → ${JSON.stringify(oldValues(text))}`);
    assert.deepEqual(oldValues("The wiki is hosted on Outline."), []);
  });

  it("the named old value ends at the word that closes it, not at the last one that could", () => {
    assert.deepEqual(oldValues("Ops swapped Nagios Core with Prometheus for host alerts."), [["nagio", "core"]]);
    assert.deepEqual(oldValues("The CLI went from Commander to Clipanion to shrink the bundle."), [["commander"]]);
  });

  it("a named old value after its marker ends at the sentence's end, before the next sentence says the new one", () => {
    assert.deepEqual(oldValues("The cabin baggage limit is no longer 7 kg. Under the new tariff it is 10 kg."), [["7", "kg"]]);
    const olds = oldValues("仓库的夜间导出 no longer starts at 02:00. Since the storage move it starts at 04:30.").flat();
    assert.ok(olds.includes("02") && !olds.includes("04") && !olds.includes("storage"), JSON.stringify(olds));
  });

  it("an addition never replaces, unless it also names what it replaces", () => {
    assert.ok(isAdditive("We now also ship a Windows build."));
    assert.ok(isAdditive("日志另外还会写一份到 Loki。"));
    assert.ok(!isAdditive("Builds moved from CircleCI to Drone, and also run on arm64."));
    assert.ok(!isAdditive("The wiki is hosted on Outline."));
  });

  it("a subject that ends in an attribute noun names a slot; one naming a thing does not", () => {
    assert.ok(subjectNamesSlot("invoice due date"));
    assert.ok(subjectNamesSlot("会员等级"));
    assert.ok(!subjectNamesSlot("render queue"));
    assert.ok(!subjectNamesSlot("payments service"));
  });

  it("task state: one label, or a count against the same total, is one task", () => {
    assert.ok(sameTask("Docs translation: 3 chapters left.", "Docs translation: blocked on the glossary review.", taskFrameSimilarity));
    assert.ok(sameTask("Photos tagged: 120 of 900 so far.", "Now 480 of 900 photos are tagged.", taskFrameSimilarity));
    assert.ok(sameTask("相册整理：900 张里标了 120 张。", "相册整理：900 张已经标完 480 张了。", taskFrameSimilarity));
    assert.ok(!sameTask("Docs translation: 3 chapters left.", "Logo redesign: waiting on the client.", taskFrameSimilarity));
  });
});

describe("the noise gate: passing states, interruptions, interjections, sign-offs, retractions", () => {
  it("stores none of them", () => {
    for (const turn of [
      "Brb, the courier is at the gate.",
      "The coffee order is wrong again, lol.",
      "Ok, calling it a day.",
      "I'm exhausted after that workshop.",
      "刚下飞机，好困。",
      "等我一下，快递到了。",
      "The build looked red... scratch that, it's fine now.",
      "唉，又加班了。",
      "Nevermind my last question, I straightened it out.",
      "Meh. Rain again.",
      "Sorry, one sec, someone's calling.",
      "Ok, popping out to grab food, back in half an hour.",
      "好了，今天先到这儿。",
      "嗯，我在医院排队呢，晚点再聊。",
      "呜呜呜电脑又蓝屏了",
      "Forget what I just said, it works now.",
      "Exam week coming up, wish me luck!",
      "元旦快乐！",
      "Oof! Traffic everywhere.",
      "哎。又堵车了。",
      "算了，不用找那把钥匙了，明天再说。",
    ]) {
      assert.deepEqual(extractRules(turn, opts), [], turn);
      assert.ok(turnIsNoise(turn, rules), `${turn} should not come back from the raw log`);
    }
  });

  it("keeps what follows a retraction when it is a new decision, and questions stay findable in the raw log", () => {
    const kept = extractRules("Forget it, we'll keep paying yearly.", opts);
    assert.equal(kept.length, 1);
    assert.match(kept[0]!.content, /paying yearly/);
    assert.equal(turnIsNoise("Why does the export job time out at midnight?", rules), false);
  });

  it("a fact said after a bare interjection is judged on its own", () => {
    const kept = extractRules("Sigh. The invoicing service has to stay on Java 11 until the bank certifies the upgrade.", opts);
    assert.equal(kept.length, 1);
    assert.match(kept[0]!.content, /Java 11/);
    assert.equal(extractRules("Good luck to whoever touches the billing cron: it must run before 02:00 UTC or invoices go out twice.", opts).length, 1, "a long sentence with a wish in it is judged on the rest");
  });
});
