import { strict as assert } from "node:assert";
import { cjkRatio, isMostlyCjk, writtenInCjk } from "../../../src/core/text/cjk.js";
import { splitSentences } from "../../../src/core/text/sentences.js";
import { contentTokens, indexText, lexicalTokens, queryText, stem } from "../../../src/core/text/tokens.js";

describe("text/tokens", () => {
  it("lexicalTokens lowercases Latin words and numbers and drops punctuation", () => {
    assert.deepEqual(lexicalTokens("Deploy to Fly.io, v3.12 NOW!"), ["deploy", "to", "fly", "io", "v3", "12", "now"]);
  });

  it("lexicalTokens segments Chinese into dictionary words", () => {
    const tokens = lexicalTokens("我喜欢吃苹果");
    assert.ok(tokens.includes("喜欢"), `tokens: ${tokens.join(" ")}`);
    assert.ok(tokens.includes("苹果"), `tokens: ${tokens.join(" ")}`);
    assert.ok(!tokens.includes("我喜欢吃苹果"), "a CJK run must not stay one token");
  });

  it("lexicalTokens handles mixed Chinese and Latin text", () => {
    const tokens = lexicalTokens("我们用Vitest测试");
    assert.ok(tokens.includes("vitest"));
    assert.ok(tokens.includes("测试"));
  });

  it("a camelCase identifier is a token and so are its words; acronyms and brand spellings stay whole", () => {
    assert.deepEqual(lexicalTokens("heapLimitMb 是 512"), ["heaplimitmb", "heap", "limit", "mb", "是", "512"]);
    assert.ok(contentTokens("what is the max pool size?").every((t) => contentTokens("maxPoolSize=40").includes(t)));
    assert.deepEqual(lexicalTokens("iOS and getHTTPClient"), ["ios", "and", "gethttpclient"]);
  });

  it("contentTokens removes English and Chinese stopwords and stems English words", () => {
    assert.deepEqual(contentTokens("The approvals were deployed by the teams"), ["approval", "deploy", "team"]);
    const zh = contentTokens("我们的数据库是什么");
    assert.ok(!zh.includes("我们") && !zh.includes("的") && !zh.includes("是") && !zh.includes("什么"), zh.join(" "));
    assert.ok(zh.includes("数据"), zh.join(" "));
  });

  it("stem leaves short words, numbers and -ss/-us/-is words alone", () => {
    assert.equal(stem("bus"), "bus");
    assert.equal(stem("class"), "class");
    assert.equal(stem("status"), "status");
    assert.equal(stem("v3s"), "v3s");
    assert.equal(stem("policies"), "policy");
    assert.equal(stem("deploying"), "deploy");
    assert.equal(stem("boxes"), "box");
  });

  it("indexText is the distinct stemmed content tokens, space separated", () => {
    assert.equal(indexText("Retry the retries: retrying tests, tested test"), "retry test");
    assert.equal(queryText("What are the tests?"), "test");
  });
});

describe("text/sentences", () => {
  it("keeps dotted names and version numbers inside one sentence", () => {
    assert.deepEqual(splitSentences("We deploy to Fly.io. Python 3.12 is required. Done!"), [
      "We deploy to Fly.io.",
      "Python 3.12 is required.",
      "Done!",
    ]);
  });

  it("keeps 'e.g. this' whole (no capital after the dot)", () => {
    assert.deepEqual(splitSentences("Use short names, e.g. foo or bar."), ["Use short names, e.g. foo or bar."]);
  });

  it("splits Chinese at 。！？ and at line breaks", () => {
    assert.deepEqual(splitSentences("我们用Vitest。测试很快！真的吗？\nNext line"), ["我们用Vitest。", "测试很快！", "真的吗？", "Next line"]);
  });

  it("returns nothing for blank text", () => {
    assert.deepEqual(splitSentences("  \n\n "), []);
  });
});

describe("text/cjk", () => {
  it("cjkRatio is the share of CJK among letters and digits", () => {
    assert.equal(cjkRatio("plain English text"), 0);
    assert.equal(cjkRatio("中文"), 1);
    assert.equal(cjkRatio("中文ab"), 0.5);
    assert.equal(cjkRatio("!!! ..."), 0);
  });

  it("isMostlyCjk at 30% or more", () => {
    assert.equal(isMostlyCjk("我们的数据库用PostgreSQL"), true);
    assert.equal(isMostlyCjk("我们用PostgreSQL"), false);
    assert.equal(isMostlyCjk("We use PostgreSQL 16 (数据库)"), false);
  });

  it("writtenInCjk counts a Latin word as one unit, as an ideograph is", () => {
    // Chinese sentences that name several English things.
    assert.equal(writtenInCjk("发布流水线跑在 GitHub Actions 的 self-hosted runner 上"), true);
    assert.equal(writtenInCjk("fw-gateway 的 OTA 包签名用 ed25519"), true);
    assert.equal(writtenInCjk("图表库换成了 ECharts 5.4"), true);
    // English sentences that name a Chinese thing or person.
    assert.equal(writtenInCjk("Send the weekly numbers to 周敏 on Friday"), false);
    assert.equal(writtenInCjk("We mirror npm through the 阿里云 registry"), false);
    assert.equal(writtenInCjk("plain English text, v2.1.0"), false);
    assert.equal(writtenInCjk("（备注）"), true);
  });
});
