import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import { extractRules, type ExtractOptions } from "../../../src/core/write/extract.js";

const NOW = Date.UTC(2026, 2, 18, 10, 0, 0);
const opts: ExtractOptions = { now: NOW, speaker: null, maxMemoryChars: 240, defaultConfidence: 0.8 };

describe("write/extract.extractRules", () => {
  const dropped = [
    "Hi!",
    "Hello there.",
    "Thanks a lot!",
    "好的",
    "谢谢！",
    "Which database do we use?",
    "你们用什么数据库？",
    "Can you check the logs for me.",
    "How was your weekend",
  ];
  for (const text of dropped) {
    it(`drops chit-chat or a question: ${text}`, () => {
      assert.deepEqual(extractRules(text, opts), []);
    });
  }

  it("reads its thresholds from the options (config.write.rules), their defaults without them", () => {
    const rules = resolveConfig().write.rules;
    const hedged = "I think the staging database is on port 5433.";
    assert.equal(extractRules(hedged, opts)[0]!.confidence, rules.hedgedConfidence);
    assert.equal(extractRules(hedged, { ...opts, rules: { ...rules, hedgedConfidence: 0.35 } })[0]!.confidence, 0.35);
    const wish = "Good luck with the release!";
    assert.deepEqual(extractRules(wish, { ...opts, rules }), []);
    assert.equal(extractRules(wish, { ...opts, rules: { ...rules, shortWishChars: 10 } }).length, 1, "past the configured length a wish is judged on the rest");
  });

  it("drops the greeting but keeps the statement of a mixed turn", () => {
    const items = extractRules("Hi! We deploy the web app to Fly.io.", opts);
    assert.equal(items.length, 1);
    assert.equal(items[0]!.content, "We deploy the web app to Fly.io.");
  });

  it("keeps a short single-kind turn whole, as one memory", () => {
    const items = extractRules("We use pnpm for the monorepo. The lockfile is committed to git.", opts);
    assert.equal(items.length, 1);
    assert.equal(items[0]!.content, "We use pnpm for the monorepo. The lockfile is committed to git.");
    assert.equal(items[0]!.type, "fact");
    assert.equal(items[0]!.confidence, 0.8);
    assert.equal(items[0]!.validUntil, null);
  });

  it("splits a long multi-sentence overview into sentences of at most 300 characters", () => {
    const sentences = [
      "The backend is a Go service that exposes a REST API behind an nginx reverse proxy on port 8443.",
      "Its data lives in PostgreSQL 16 with logical replication to a read replica in another region.",
      "Background jobs run on a Redis-backed queue with at most twenty workers per node and a retry budget of five attempts.",
      "Deployments go through GitHub Actions, which builds a container image and rolls it out to Kubernetes with Argo CD.",
      "Observability is Prometheus for metrics, Loki for logs and Tempo for traces, all wired into one Grafana instance.",
    ];
    const text = sentences.join(" ");
    assert.ok(text.length > 300);
    const items = extractRules(text, opts);
    assert.ok(items.length >= sentences.length - 1, `expected about one memory per sentence, got ${items.length}`);
    for (const item of items) assert.ok(item.content.length <= 300, `too long (${item.content.length}): ${item.content}`);
    for (const s of sentences) assert.ok(items.some((i) => i.content.includes(s)), `lost: ${s}`);
  });

  it("cleans a leading filler and capitalises", () => {
    const items = extractRules("btw, the staging database is on port 5433.", opts);
    assert.equal(items.length, 1);
    assert.equal(items[0]!.content, "The staging database is on port 5433.");
  });

  it("keeps what a greeting or a 'just so you know' frames, without the framing", () => {
    const cases: Array<[string, string]> = [
      ["Hey all, the release branch is cut every second Tuesday, just so you know.", "The release branch is cut every second Tuesday."],
      ["Heads-up: the nightly backup now lands in the cold-storage bucket.", "The nightly backup now lands in the cold-storage bucket."],
      ["提醒一下，报销单每月 25 号截止，供参考。", "报销单每月 25 号截止。"],
    ];
    for (const [said, kept] of cases) assert.deepEqual(extractRules(said, opts).map((i) => i.content), [kept], said);
  });

  it("a pause word that opens a correction is not an interruption: the correction is kept, a real pause is not", () => {
    assert.deepEqual(
      extractRules("Wait, that's out of date: the invoices service moved from Heroku to Render last month.", opts).map((i) => i.content),
      ["The invoices service moved from Heroku to Render last month."],
    );
    assert.deepEqual(extractRules("等一下，刚才说错了，年会改到一月二十号了。", opts).map((i) => i.content), ["年会改到一月二十号了。"]);
    assert.deepEqual(extractRules("Hold on, somebody is knocking.", opts), []);
    assert.deepEqual(extractRules("Hang on, that's wrong.", opts), []);
    assert.deepEqual(extractRules("等一下，我去拿个快递。", opts), []);
  });

  it("gives third-party statements a lower confidence and their own subject", () => {
    const [item] = extractRules("My friend uses the premium plan.", opts);
    assert.ok(item);
    assert.equal(item.subject, "third-party:friend");
    assert.equal(item.confidence, 0.5);
  });

  it("gives hedged statements a low confidence", () => {
    const [item] = extractRules("I think the build uses Gradle.", opts);
    assert.ok(item);
    assert.equal(item.confidence, 0.4);
  });

  it("reads a validity bound from the text", () => {
    const [item] = extractRules("Deploys are frozen this week.", opts);
    assert.ok(item);
    assert.equal(item.validUntil, Date.UTC(2026, 2, 22, 23, 59, 59, 999));
  });

  it("rewrites a speaker's first person into a standalone sentence and infers the speaker as subject", () => {
    const [item] = extractRules("I moved to Berlin last year.", { ...opts, speaker: "Caroline" });
    assert.ok(item);
    assert.equal(item.content, "Caroline moved to Berlin last year.");
    assert.equal(item.subject, "Caroline");
    assert.equal(item.type, "event");
    const [noPronoun] = extractRules("Berlin was lovely in the spring.", { ...opts, speaker: "Caroline" });
    assert.equal(noPronoun?.content, "Caroline: Berlin was lovely in the spring.");
  });

  it("rewrites the user's first person (English and Chinese)", () => {
    assert.equal(extractRules("I prefer tabs and my editor is Vim.", opts)[0]?.content, "The user prefers tabs and the user's editor is Vim.");
    assert.equal(extractRules("Do not call me before 9 am.", opts)[0]?.content, "Do not call the user before 9 am.");
    assert.equal(extractRules("I'd rather review one larger pull request.", opts)[0]?.content, "The user would rather review one larger pull request.");
    assert.equal(extractRules("I'd rather review one larger pull request.", opts)[0]?.type, "preference");
    assert.equal(extractRules("我的邮箱是 a@b.com。", opts)[0]?.content, "用户的邮箱是 a@b.com。");
    // A verb in the negative agrees too, or stays as it was: "haven't" is "hasn't", "can't" is "can't".
    assert.equal(extractRules("I haven't used the staging VPN since March.", opts)[0]?.content, "The user hasn't used the staging VPN since March.");
    assert.equal(extractRules("I don't review pull requests on Fridays and I can't approve releases.", opts)[0]?.content, "The user doesn't review pull requests on Fridays and the user can't approve releases.");
    assert.equal(extractRules("我们的数据库是PostgreSQL 16。", opts)[0]?.content, "我们的数据库是PostgreSQL 16。");
  });

  it("drops preambles that only announce what follows", () => {
    assert.deepEqual(extractRules("Quick overview before you start.", opts), []);
    assert.deepEqual(extractRules("我先把情况都说一下吧。", opts), []);
  });

  it("extracts Chinese statements and drops Chinese greetings", () => {
    const items = extractRules("你好！我们的数据库是PostgreSQL 16。", opts);
    assert.equal(items.length, 1);
    assert.equal(items[0]!.content, "我们的数据库是PostgreSQL 16。");
  });
});
