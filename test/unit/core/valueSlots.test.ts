import { strict as assert } from "node:assert";
import { resolveConfig } from "../../../src/core/config.js";
import type { MemoryRecord, MemoryType } from "../../../src/core/model/memory.js";
import { MULTILINGUAL_E5_SMALL, thresholds } from "../../../src/core/model/profiles.js";
import { withDigits } from "../../../src/core/text/numerals.js";
import { classifyType } from "../../../src/core/write/classify.js";
import { extractRules } from "../../../src/core/write/extract.js";
import { relate, replacesNamedValue, sameTask, type Relation } from "../../../src/core/write/reconcile.js";
import { splitSentences } from "../../../src/core/text/sentences.js";
import { announcesChange, correctsEarlier, isAdditive, keepsPartAsBefore, numberedAttribute, oldValues, progressFrame, responsibilityReading, sameSlot, subjectNamesSlot, taskLabel as taskLabelOf, versionedSlot as versionedSlotOf, versionsNamed } from "../../../src/core/write/slot.js";
import { DAY, T0, vectorsAt } from "../../helpers/fakes.js";

// Kinds that failed in a months-long history written without looking at the rules (eval/judgement/fresh4):
// a value given as a name with its head noun, a number given to the same noun, a value ruled out in so
// many words, a role filled by one person, a count written in words reaching its total. The sentences
// here are in no case file.

const config = resolveConfig();
const t = thresholds(config, MULTILINGUAL_E5_SMALL);


const { taskFrameSimilarity } = resolveConfig().write;

function relation(older: string, olderType: MemoryType, newer: string, newerType: MemoryType, cos: number, gapMs = 10 * DAY): Relation | null {
  const [va, vb] = vectorsAt(cos);
  const existing = { id: "m1", content: older, type: olderType, subject: "", source: "extractor", confidence: 0.8, validUntil: null, confirmedAt: T0, createdAt: T0 } as unknown as MemoryRecord;
  const candidate = { content: newer, type: newerType, subject: "", source: "extractor" as const, confidence: 0.8, validUntil: null, vector: vb, now: T0 + gapMs };
  return relate(candidate, existing, va, config, t);
}

describe("a value phrase: a name and its head noun", () => {
  it("two statements that differ only by a named place with its noun are one slot", () => {
    assert.ok(sameSlot("Pickup point for the school trip: Elmfield Library steps.", "The school trip pickup point is the Carver Street gym."));
    assert.ok(sameSlot("The team offsite dinner is at the Bellhaven Grill.", "The team offsite dinner is at the Copper Pot bistro."));
  });

  it("a word before the value says which attribute it is: another slot", () => {
    assert.equal(sameSlot("Our build box is named Kestrel.", "Our build box is in Oslo."), null);
    assert.equal(sameSlot("Lena owns the Search dashboard.", "Lena owns the Billing service."), null);
  });

  it("said seconds apart with equal confidence, two such statements are a reported conflict, not a silent winner", () => {
    const r = relation("Pickup point for the school trip: Elmfield Library steps.", "fact", "The school trip pickup point is the Carver Street gym.", "fact", 0.88, 30_000);
    assert.equal(r?.kind, "conflict");
  });
});

describe("the same noun given another number in the same unit", () => {
  it("is one attribute, in English and Chinese", () => {
    assert.deepEqual(numberedAttribute("After the grant came in, the total budget is $640k.", "The budget is capped at $480k for this year.")?.common, ["budget"]);
    assert.ok(numberedAttribute("房东说从下月起月租是5200元", "我们的月租是4900元，押一付三"));
  });

  it("another unit, or a pronoun, is not the same attribute", () => {
    assert.equal(numberedAttribute("The crew is 3 weeks behind.", "The crew is 12 people."), null);
    assert.equal(numberedAttribute("That's 40 hours.", "That's 12 euros."), null);
  });

  it("a new number for the same noun supersedes the old one", () => {
    assert.equal(relation("The budget is capped at $480k for this year.", "fact", "After the grant came in, the total budget is $640k.", "fact", 0.86)?.kind, "supersedes");
  });
});

describe("a value ruled out in so many words names what it replaces", () => {
  it("reads the rejected value, within its own sentence", () => {
    assert.deepEqual(oldValues("We'll meet at the Harbour Inn. The Lisbon option's been scrapped."), [["lisbon", "option"]]);
    assert.deepEqual(oldValues("Booked the Granary for the party. Castlegate fell through, they double-booked."), [["castlegate"]]);
    assert.deepEqual(oldValues("The editor stays on Final Cut rather than Premiere."), [["premiere"]]);
  });

  it("a leading article is not cut from a name that starts with its letter", () => {
    assert.deepEqual(oldValues("We render on Blender rather than Anvil now."), [["anvil"]]);
  });

  it("the statement supersedes the memory holding the rejected value", () => {
    const r = relation("The team party is at Castlegate Hall.", "fact", "Booked the Granary for the team party. Castlegate fell through, they double-booked.", "fact", 0.84);
    assert.equal(r?.kind, "supersedes");
  });
});

describe("a value said to be dropped or dead names what it replaces (fresh5)", () => {
  it("'X 也不用了' and 'X is dead for us' name X; a machine that died names nothing", () => {
    assert.deepEqual(oldValues("Couchbase 也不用了，缓存现在切到了 Valkey"), [["couchbase"]]);
    assert.deepEqual(oldValues("the Quasar board is dead for this product, we use the Pico W"), [["quasar", "board"]]);
    assert.deepEqual(oldValues("The staging server is dead again, restarting it."), []);
  });

  it("more ways of naming the value replaced (fresh6 kinds)", () => {
    assert.deepEqual(oldValues("Zoom is out, Meet is in."), [["zoom"]]);
    assert.deepEqual(oldValues("The new release is out, changelog in the wiki"), [], "'out' of a release is no replacement");
    assert.deepEqual(oldValues("we raised the request timeout to 45 s (it used to be 30 s)"), [["30"]]);
    assert.deepEqual(oldValues("接口超时调到了 45 秒，之前是30秒"), [["30"]]);
    assert.deepEqual(oldValues("例会时间改了，不是周二了，改到周三"), [["周二"]]);
    assert.ok(oldValues("早就没再用钉钉了，现在都在飞书上")[0]?.includes("钉钉"));
    assert.deepEqual(oldValues("The BME280 was too noisy, we swapped it for an SHT45"), [["bme280"]]);
  });

  it("a possessive value phrase is the whole phrase, not its owner", () => {
    assert.deepEqual(oldValues("Receipts go to ops@x.example rather than the user's work inbox."), [["user", "work", "inbox"]]);
    assert.equal(replacesNamedValue("Receipts go to ops@x.example rather than the user's work inbox.", "The user is on the Starter plan."), false);
  });

  it("a value ruled out with its head noun names the value alone", () => {
    assert.ok(replacesNamedValue("The vet moved us to Wednesdays, the Friday slot got cancelled", "We take the dog to the vet on Fridays."));
    assert.equal(replacesNamedValue("The vet moved us to Wednesdays, the Friday slot got cancelled", "The vet is on Elm Road."), false);
  });

  it("a short sentence that only rules a value out is read with the sentence that replaces it", () => {
    const items = extractRules("No more Travis CI! Builds run on Buildkite now.", { now: T0, speaker: null, maxMemoryChars: 240, defaultConfidence: 0.8 });
    assert.equal(items.length, 1);
    assert.match(items[0]!.content, /Travis CI.*Buildkite/);
  });
});

describe("an explicit subject names the thing, not the attribute", () => {
  function withSubject(older: string, newer: string, subject: string, cos: number): Relation | null {
    const [va, vb] = vectorsAt(cos);
    const existing = { id: "m1", content: older, type: "fact", subject, source: "agent", confidence: 0.8, validUntil: null, confirmedAt: T0, createdAt: T0 } as unknown as MemoryRecord;
    const candidate = { content: newer, type: "fact" as MemoryType, subject, source: "agent" as const, confidence: 0.8, validUntil: null, vector: vb, now: T0 + DAY };
    return relate(candidate, existing, va, config, t);
  }

  it("an update cue and the subject's words alone do not make two attributes one", () => {
    assert.equal(withSubject("支付回调服务的重试次数是 3 次。", "支付回调服务现在监听 7001 端口。", "支付回调服务", 0.93), null);
    assert.equal(withSubject("The invoice exporter retries 3 times.", "The invoice exporter now writes to bucket exp-2.", "invoice exporter", 0.93), null);
  });

  it("the same attribute with a new value still supersedes", () => {
    assert.equal(withSubject("支付回调服务监听端口是 7000。", "支付回调服务现在监听 7001 端口。", "支付回调服务", 0.93)?.kind, "supersedes");
    assert.equal(withSubject("The school shuttle leaves at 7:40 AM.", "From next week the school shuttle pulls out at 7:55 instead.", "school shuttle", 0.93)?.kind, "supersedes", "a new clock time for the same thing, worded otherwise");
  });
});

describe("a role filled by one person is a slot", () => {
  it("a subject ending in a role noun names an attribute; a bare thing does not", () => {
    assert.ok(subjectNamesSlot("kiosk app designer"));
    assert.ok(subjectNamesSlot("婚礼摄影对接人"));
    assert.equal(subjectNamesSlot("kiosk app"), false);
  });
});

describe("'too' adds only where it closes its clause", () => {
  it("a degree 'too' before an adjective or a quantifier adds nothing", () => {
    assert.equal(isAdditive("From Monday the night bus is the N41, too many delays on the old route."), false);
    assert.ok(isAdditive("The quiz app runs on tablets too."));
    assert.ok(isAdditive("The shop takes cards too now."));
  });
});

describe("a count written in words, reaching its total", () => {
  it("both sides of 'of' are read apart, not as a fraction", () => {
    assert.equal(withDigits("forty-one of 90 lockers painted"), "41 of 90 lockers painted");
  });

  it("'all N … done' is a count at its total, and a status line", () => {
    assert.equal(progressFrame("All 90 lockers are painted blue")?.total ?? null, null);
    assert.equal(progressFrame("all 90 lockers are done, signed off")?.total, "90");
    assert.equal(progressFrame("90 个柜子全部刷完了")?.total, "90");
    assert.equal(classifyType("90 个柜子全部刷完了"), "task_state");
    assert.equal(classifyType("All 4 regions run on Graviton."), "fact");
  });

  it("the count at its total supersedes the count written in words", () => {
    const r = relation("Locker repaint: forty-one of 90 done", "task_state", "all 90 lockers are done, signed off", "task_state", 0.9);
    assert.equal(r?.kind, "supersedes");
  });
});

describe("'went' announces a change only where it chooses or moves a value", () => {
  it("choosing, rising, succeeding: a change; going somewhere: none", () => {
    assert.ok(announcesChange("In the end the board went with the cheaper roofer."));
    assert.ok(announcesChange("Parking went up to 9 euros a day."));
    assert.ok(announcesChange("The visa application went through."));
    assert.equal(announcesChange("Last weekend Jonas went to a pottery fair in Ghent."), false);
    assert.equal(announcesChange("We went through the onboarding docs together."), false);
  });
});

describe("in a long message, an additive word counts in the clause about the memory or before it", () => {
  /** A unit vector at the given cosine to e0, turned into the plane of the axis `axis`. */
  function at(cos: number, axis: number): Float32Array {
    const v = new Float32Array(8);
    v[0] = cos;
    v[axis] = Math.sqrt(1 - cos * cos);
    return v;
  }
  function withClauses(older: string, newer: string, clauses: Array<[string, number]>): Relation | null {
    const existing = { id: "m1", content: older, type: "fact", subject: "", source: "extractor", confidence: 0.8, validUntil: null, confirmedAt: T0, createdAt: T0 } as unknown as MemoryRecord;
    const e0 = new Float32Array(8);
    e0[0] = 1;
    const candidate = {
      content: newer,
      type: "fact" as const,
      subject: "",
      source: "extractor" as const,
      confidence: 0.8,
      validUntil: null,
      vector: at(0.84, 1),
      now: T0 + 10 * DAY,
      clauses: clauses.map(([content, cos], i) => ({ content, vector: at(cos, i + 2) })),
    };
    return relate(candidate, existing, e0, config, t);
  }

  it("a remark after the clause that changes the value adds nothing to it", () => {
    const r = withClauses("Worktop material: granite.", "The worktop is oak now, the fitter says the sink fits as well.", [
      ["The worktop is oak now", 0.9],
      ["the fitter says the sink fits as well", 0.5],
    ]);
    assert.equal(r?.kind, "supersedes");
  });

  it("an additive opening frames the clause after it", () => {
    const r = withClauses("Worktop material: granite.", "In addition to the granite, the worktop now has an oak section.", [
      ["In addition to the granite", 0.7],
      ["the worktop now has an oak section", 0.9],
    ]);
    assert.equal(r, null);
  });
});

describe("chat punctuation and corrections", () => {
  it("an emoji and a capital after it end a sentence; an emoji inside a Chinese remark does not", () => {
    assert.deepEqual(splitSentences("Long week at the clinic 😴 The lab now opens at 7:30."), ["Long week at the clinic 😴", "The lab now opens at 7:30."]);
    assert.deepEqual(splitSentences("早上地铁挤爆了😵 差点迟到"), ["早上地铁挤爆了😵 差点迟到"]);
  });

  it("'make that …' and a correction rewritten in the third person still correct", () => {
    assert.ok(correctsEarlier("Make that Thursday: the vet visit is on Thursday."));
    assert.ok(correctsEarlier("The user meant gate B12, not B21."));
  });

  it("a bare 'no' before a number and a slip of the hand or eye correct (eval/judgement/fresh20)", () => {
    assert.ok(correctsEarlier("no, the ferry leaves at 7:40, I had the winter timetable open"));
    assert.ok(correctsEarlier("nope, 3 pallets not 5"));
    assert.ok(correctsEarlier("写错了，会议室是 4 楼不是 3 楼"));
    assert.ok(correctsEarlier("看错了 押金是800"));
    assert.equal(correctsEarlier("no, thanks, I'm fine"), false);
    assert.equal(correctsEarlier("No rush on the report."), false);
  });
});

describe("a name given another version is one slot when nothing else names another thing", () => {
  it("reads the versions a statement gives to names", () => {
    assert.deepEqual([...versionsNamed("The billing service runs on Python 3.9 and Django 4.2.")], [["python", "3.9"], ["django", "4.2"]]);
    assert.deepEqual([...versionsNamed("报表服务的 Java 版本是 17")], [["java", "17"]]);
    assert.deepEqual([...versionsNamed("the infra repo pins terraform v1.7 now")], [["terraform", "1.7"]]);
    assert.equal(versionsNamed("the timeout is 30 seconds on port 8080").size, 0);
  });
  it("a new version of the same name supersedes the old one, in English and Chinese", () => {
    assert.equal(relation("The billing service runs on Python 3.9.", "fact", "The billing service is on Python 3.12.", "fact", 0.93)?.kind, "supersedes");
    assert.equal(relation("报表服务基于 Java 11 开发。", "fact", "报表服务的 Java 版本是 17", "fact", 0.92)?.kind, "supersedes");
  });
  it("another thing on another version is another slot", () => {
    assert.equal(relation("Our staging cluster is on Kubernetes 1.27", "fact", "Prod cluster is on Kubernetes 1.29", "fact", 0.95), null);
    assert.equal(relation("测试环境的 Kubernetes 是 1.27", "fact", "生产环境的 Kubernetes 是 1.29", "fact", 0.95), null);
    assert.equal(relation("The invoicing API runs on Node 20.", "fact", "We also keep a Node 16 runner for the legacy widget build.", "fact", 0.9), null);
  });
});

describe("a number said to be too much or too little names the value it replaces", () => {
  it("reads the rejected number, in English and Chinese", () => {
    assert.deepEqual(oldValues("Session timeout is 45 minutes now, 20 was way too short for the nurses"), [["20"]]);
    assert.deepEqual(oldValues("batch size back to 64, 256 were too many for the small GPU"), [["256"]]);
    assert.deepEqual(oldValues("每页显示 20 条就行，50 条太多了"), [["50"]]);
    assert.deepEqual(oldValues("The deploy took too long yesterday"), []);
  });
});

describe("a change verb in its base form with a past time marker is a past change", () => {
  it("announces a change in non-native English; a plan or a habit does not", () => {
    assert.ok(announcesChange("We migrate the build to Gradle 8 yesterday, all green"));
    assert.ok(announcesChange("two weeks ago we switch the analytics to Plausible"));
    assert.equal(announcesChange("We will migrate the build to Gradle 8 next month"), false);
    assert.equal(announcesChange("We usually upgrade the phones in September"), false);
  });
});

describe("a date named in one format is the date held in another", () => {
  it("a leading zero does not make another number", () => {
    assert.equal(relation("团建定在 2026-05-08", "fact", "团建时间有变，不是5月8号了，定在5月22号", "fact", 0.84)?.kind, "supersedes");
    assert.equal(relation("The audit is due 2026-09-07.", "fact", "audit due date isn't 09/07 anymore, it's the 21st", "fact", 0.84)?.kind, "supersedes");
  });
});

describe("a statement that settles a choice announces the value chosen", () => {
  it("in English and Chinese; 'last' as an order is no choice", () => {
    assert.ok(announcesChange("in the end we settled on Postmark for the transactional emails"));
    assert.ok(announcesChange("We opted for monthly billing after all"));
    assert.ok(announcesChange("婚礼场地最终敲定在市区酒店了"));
    assert.ok(announcesChange("书房窗帘最后还是选了卷帘"));
    assert.equal(announcesChange("最后一步是部署到生产环境"), false);
    assert.equal(announcesChange("The last step is the smoke test."), false);
  });
  it("replaces the earlier choice for the same thing, and nothing about another", () => {
    assert.equal(relation("书房窗帘用的是百叶帘", "fact", "书房窗帘最后还是选了卷帘，遮光好", "fact", 0.95)?.kind, "supersedes");
    assert.equal(relation("The API is written in Go.", "fact", "In the end we settled on Redis for caching", "fact", 0.8), null);
  });
});

describe("a version given in a clause, with its reason after it", () => {
  it("one side naming the thing and the other not is still one thing", () => {
    assert.equal(relation("ledgerkit 的 MSRV 是 Rust 1.68。", "fact", "We bumped the MSRV to Rust 1.75 because the new serde release needs it", "fact", 0.86)?.kind, "supersedes");
    assert.equal(relation("The kiosk tablets in the Hull depot run firmware 7-20-3.", "fact", "Hull depot kiosk tablets were updated to firmware 7-22-1 last night.", "fact", 0.9)?.kind, "supersedes");
  });
  it("each side naming a thing the other does not is two things", () => {
    assert.equal(relation("The staging cluster runs Kubernetes 1.27.", "fact", "We bumped the prod cluster to Kubernetes 1.29 because of the CVE", "fact", 0.9), null);
    assert.equal(relation("The staging cluster runs Kubernetes 1.27.", "fact", "Yesterday we bumped the prod cluster to Kubernetes 1.29", "event", 0.9), null);
  });
});

describe("a number and its unit in front of the noun they measure", () => {
  it("is the noun's value, as after a copula", () => {
    assert.deepEqual(numberedAttribute("The linter enforces a 120-character line limit", "The linter enforces an 80-character line limit")?.common, ["limit"]);
    assert.deepEqual(numberedAttribute("Lobby 服务器的 refresh rate 现在是 20 Hz", "The lobby server polls at a 5 Hz refresh rate.")?.common, ["rate"]);
    assert.equal(numberedAttribute("We hold a 15-minute standup", "We hold a 60-minute retro"), null);
  });
  it("a new number for it replaces the old one", () => {
    assert.equal(relation("The user prefers 2-space indentation in Go templates.", "preference", "For Go templates the user wants 4-space indentation, easier to scan", "preference", 0.9)?.kind, "supersedes");
  });
});

describe("a value named before the old one says what changed, not what it became", () => {
  it("the thing's name in front does not count as the new value", () => {
    assert.ok(replacesNamedValue("支付 SDK 我们把 Braintree 换成了连连支付", "The checkout uses the Braintree SDK for card payments."));
    assert.equal(replacesNamedValue("we moved from Braintree to the Stripe SDK", "The checkout uses the Braintree SDK and the Stripe SDK."), false);
  });
});

describe("a setting adjusted to a new value", () => {
  it("调整为 / 变更为 announce a change", () => {
    assert.ok(announcesChange("库存同步频率调整为每 5 分钟一次"));
    assert.ok(announcesChange("客服热线变更为 400 开头的号码"));
  });
});

describe("one task's status lines in two languages", () => {
  const frame = config.write.taskFrameSimilarity;
  it("close in meaning, with the same numbers in the label and the same total, are one task", () => {
    assert.ok(sameTask("Season 1 edits: 4/10 episodes", "第一季剪辑：7/10 集", frame, true));
  });
  it("another number in the label, another total, or one language with two labels are two", () => {
    assert.equal(sameTask("Season 2 edits: 4/10 episodes", "第一季剪辑：7/10 集", frame, true), false);
    assert.equal(sameTask("Season 1 edits: 4/12 episodes", "第一季剪辑：7/10 集", frame, true), false);
    assert.equal(sameTask("Season 1 edits: 4/10 episodes", "Season 1 subtitles: 7/10 episodes", frame, true), false);
    assert.equal(sameTask("Season 1 edits: 4/10 episodes", "第一季剪辑：7/10 集", frame, false), false);
  });
});

describe("a progress report without a label, in the other language", () => {
  const frame = config.write.taskFrameSimilarity;
  it("the same item of a series and the same total: one task", () => {
    assert.ok(sameTask("第一季 10 集全部剪完了，已经交给调色", "Season 1 edits: 4/10 episodes", frame, true));
    assert.equal(sameTask("第二季 10 集全部剪完了", "Season 1 edits: 4/10 episodes", frame, true), false);
  });
});

describe("an item number before a count in Chinese", () => {
  it("is not the total the count is of", () => {
    assert.equal(progressFrame("第三单元 20 题全部讲完了")?.total, "20");
    assert.equal(progressFrame("10 个类目迁完 7 个")?.total, "10");
    assert.equal(progressFrame("第四章 15 关全部做完了")?.total, "15", "关 counts levels");
  });
});

describe("a value removed in so many words is the value replaced", () => {
  it("a removal verb names its object as the old value (dropped, ripped out, got rid of the old …)", () => {
    assert.ok(replacesNamedValue("The parser is hand-written now; we ripped out ANTLR.", "The query parser is generated with ANTLR 4."));
    assert.ok(replacesNamedValue("We're getting rid of Pipenv: dependencies go through uv from this release.", "Python dependencies are managed with Pipenv."));
    assert.ok(replacesNamedValue("Last week we moved the wiki to Outline and deleted the old Confluence space.", "Team docs live in Confluence."));
    assert.ok(replacesNamedValue("We dropped support for Node 16, the CLI needs Node 18 now.", "The CLI supports Node 16 and later."));
  });
  it("removing something the memory does not hold names nothing", () => {
    assert.equal(replacesNamedValue("We ripped out the feature flags for checkout.", "The query parser is generated with ANTLR 4."), false);
  });
  it("'scratch' or 'strike' before a value opens a correction that rejects it", () => {
    assert.deepEqual(oldValues("strike the 40 GB: the archive volume is 60 GB after the resize."), [["40", "gb"]]);
    assert.ok(replacesNamedValue("scratch the Thursday slot, the retro is on Friday afternoons now.", "The retro is on Thursday afternoons."));
  });
  it("之前是 A，后面一个改动的动词：A 是旧值", () => {
    assert.ok(replacesNamedValue("以前是 Python 3.9，这个月已经统一升到 3.12 了。", "数据脚本跑在 Python 3.9 上。"));
    assert.ok(replacesNamedValue("原来用的是 Jenkins，去年底全部迁到了 GitLab CI。", "构建流水线用 Jenkins。"));
  });
});

describe("a new value named before the old one ('B instead of A')", () => {
  it("is still the new value: a memory that holds only the thing's name is replaced", () => {
    assert.ok(replacesNamedValue("Ship logs with Vector instead of the Fluentd sidecar on every node.", "Node logs are shipped by a Fluentd sidecar on every node."));
    assert.ok(replacesNamedValue("夜间备份写到 MinIO，而不是原来的 NAS。", "夜间备份写到 NAS。"));
    assert.ok(replacesNamedValue("Run the nightly ETL on Dagster instead of Airflow for every DAG.", "The nightly ETL runs on Airflow, one DAG per source."));
  });
});

describe("who is responsible for a thing is one slot, however it is said", () => {
  it("a new person for the same thing replaces the old one", () => {
    assert.equal(relation("The billing dashboard is owned by Marta.", "fact", "Kofi is taking over the billing dashboard from next sprint.", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("发票服务的负责人是王磊。", "fact", "发票服务以后归小周管。", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("发票服务由王磊维护。", "fact", "发票服务的对接人改成了小周。", "fact", 0.9)?.kind, "supersedes");
  });
  it("one person responsible for two things, or two attributes, are two slots", () => {
    assert.equal(relation("Marta owns the billing dashboard.", "fact", "Marta owns the search indexer.", "fact", 0.9), null);
    assert.equal(relation("发票服务的负责人是王磊。", "fact", "报销服务的负责人是王磊。", "fact", 0.9), null);
  });
  it("any role named by an agent noun is a slot held by one person, read in whichever clause says it", () => {
    assert.equal(relation("The release manager for Orbit is Tomas.", "fact", "Tomas moved teams; the Orbit release manager is now Greta.", "fact", 0.93)?.kind, "supersedes");
    assert.equal(relation("The Kestrel design reviewer is Ana.", "fact", "Bruno is now the Kestrel design reviewer.", "fact", 0.93)?.kind, "supersedes");
    assert.equal(relation("支付网关的值班负责人是赵磊。", "fact", "赵磊休假了，支付网关的值班负责人改成了孙悦。", "fact", 0.93)?.kind, "supersedes");
    assert.equal(relation("合同审核人是刘洋。", "fact", "合同审核人是何静。", "fact", 0.95)?.kind, "supersedes");
  });
  it("the person may be the subject of 'the <role> of <thing>', and a colon may stand for 'is' (fresh10)", () => {
    assert.equal(relation("The invoice exporter is maintained by Carla.", "fact", "Yusuf is the maintainer of the invoice exporter.", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("Nadia is the lead of the search cluster rollout.", "fact", "Omar moved over from QA; he is not the lead, Priscilla is now the search cluster rollout lead.", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("Search cluster owner: Nadia.", "fact", "The search cluster owner is Omar.", "fact", 0.93)?.kind, "supersedes");
    assert.equal(relation("审批流程的负责人是高翔。", "fact", "审批流程的负责人：郑宇。", "fact", 0.93)?.kind, "supersedes");
  });
  it("a Chinese hand-over may name the old holder and a date, and an acting holder is the holder (fresh10)", () => {
    assert.equal(relation("数据平台负责人从郑宇换成了高翔。", "fact", "高翔去读博了，自 3 月 1 日起数据平台负责人由林峰代理。", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("数据平台的负责人是郑宇。", "fact", "数据平台负责人从郑宇换成了高翔，郑宇去带新人了。", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("数据平台负责人从郑宇换成了高翔，郑宇去带新人了。", "fact", "高翔借调一个月，从下周一起数据平台负责人由林峰代理。", "fact", 0.88)?.kind, "supersedes");
    assert.equal(relation("Yusuf is the maintainer of the invoice exporter.", "fact", "Yusuf is the maintainer of the audit logger.", "fact", 0.9), null);
    assert.equal(relation("数据平台负责人从郑宇换成了高翔。", "fact", "报表平台负责人由林峰代理。", "fact", 0.9), null);
  });
  it("two roles of one thing are two slots, even when the statements sit close", () => {
    assert.equal(relation("The release manager for Orbit is Tomas.", "fact", "The QA lead for Orbit is Greta.", "fact", 0.95), null);
    assert.equal(relation("合同审核人是刘洋。", "fact", "合同归档人是何静。", "fact", 0.95), null);
  });
});

describe("a bound on one thing in one unit is one slot, however the bound is worded (fresh10)", () => {
  it("a new cap on the same thing replaces the old one", () => {
    assert.equal(relation("The export job caps each CSV at 50 MB.", "constraint", "Max CSV size for the export job: 200 MB.", "constraint", 0.88)?.kind, "supersedes");
    assert.equal(relation("批量接口单次最多提交 200 条记录。", "constraint", "批量接口单次提交记录上限：500 条。", "constraint", 0.88)?.kind, "supersedes");
    assert.equal(relation("The geocoding API allows 300 lookups per minute per key.", "constraint", "The rate limit on the geocoding API was raised to 900 lookups per minute per key.", "constraint", 0.88)?.kind, "supersedes");
  });
  it("a bound on another attribute of the thing, or a floor against a cap, stays beside it", () => {
    assert.equal(relation("The export job caps each CSV at 50 MB.", "constraint", "The export job keeps up to 900 MB of temporary files in memory.", "constraint", 0.85), null);
    assert.equal(relation("The export job caps each CSV at 50 MB.", "constraint", "The export job needs at least 200 MB of free disk.", "constraint", 0.85), null);
  });
});

describe("a change that calls a name the old one names the value it replaces, and only that memory (fresh10)", () => {
  it("'原来的 X' / 'the old X' in a change names X", () => {
    assert.equal(relation("构建工具用的是 webpack 5。", "fact", "构建工具改用 Vite 了，原来的 webpack 配置已经删掉。", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("The docs site is built with Docusaurus.", "fact", "We moved the docs site to Starlight; the old Docusaurus theme is archived.", "fact", 0.88)?.kind, "supersedes");
    assert.equal(relation("The idle power budget is 40 mW per board.", "fact", "待机功耗预算调整为 60 mW，原来的 40 mW 达不到。", "fact", 0.86)?.kind, "supersedes");
  });
  it("another thing changed the same way is not replaced: the verb of change is no attribute", () => {
    assert.equal(relation("站内搜索不再用 Solr，改用 Meilisearch 1.6。", "fact", "构建工具改用 Vite 了，原来的 webpack 配置已经删掉。", "fact", 0.92), null);
  });
});

describe("a change to a versioned name replaces only a memory that names it (fresh10)", () => {
  it("the runtime of a service upgraded is not what the service provides", () => {
    assert.equal(relation("后端接口由 Django 服务提供。", "fact", "Django 服务的 Python 版本升级到了 Python 3.12。", "fact", 0.89), null);
    assert.equal(relation("The billing API is served by a Rails app.", "fact", "The Rails app was upgraded to Ruby 3.3.", "fact", 0.88), null);
  });
  it("the same name given a new version still replaces", () => {
    assert.equal(relation("The Rails app runs on Ruby 3.1.", "fact", "The Rails app was upgraded to Ruby 3.3.", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("Django 服务跑在 Python 3.10 上。", "fact", "Django 服务的 Python 版本升级到了 Python 3.12。", "fact", 0.9)?.kind, "supersedes");
  });
});

describe("a statement that names the value it replaces replaces only a memory holding it (fresh9, fresh10)", () => {
  it("another change of the same project is not replaced by closeness", () => {
    assert.equal(relation("We moved Quillpad off Render onto Fly.io.", "fact", "Quillpad's editor component switched from Slate to Lexical.", "fact", 0.89), null);
    assert.equal(relation("工单系统从禅道迁到了 Jira。", "fact", "工单系统的通知渠道从邮件改成了飞书。", "fact", 0.9), null);
  });
  it("the memory that holds the named value is still replaced", () => {
    assert.equal(relation("Quillpad's editor component is built on Slate.", "fact", "Quillpad's editor component switched from Slate to Lexical.", "fact", 0.89)?.kind, "supersedes");
    assert.equal(relation("The wiki data lives in CouchDB 2.3.", "fact", "We moved the wiki off CouchDB onto SQLite.", "fact", 0.88)?.kind, "supersedes");
    assert.equal(relation("Kestrel iOS deploymentTarget is 15.", "fact", "Bumped deploymentTarget to 16, Big Sur-era devices are dead to us.", "fact", 0.93)?.kind, "supersedes", "an old value named in other words is judged by the attribute word");
  });
});

describe("two roles of one thing, and one person succeeding another (fresh11)", () => {
  it("a new person in charge does not replace the thing's contact person", () => {
    assert.equal(relation("智慧园区项目在住建局的对接人是周婷。", "fact", "智慧园区项目负责人换成了马骏，何平调去信息中心了。", "fact", 0.9), null);
    assert.equal(relation("The vendor contact for the ERP rollout is Ines.", "fact", "The ERP rollout owner is now Bastian.", "fact", 0.9), null);
  });
  it("'A 接替 B，负责 X' hands X to A", () => {
    assert.equal(relation("数据中心机房的巡检人员是钱峰。", "fact", "韩雪接替钱峰，负责数据中心机房的巡检。", "fact", 0.9)?.kind, "supersedes");
  });
});

describe("more ways of naming the value replaced (fresh11)", () => {
  it("a verb of discarding, 'B replaces A', '把 A 撤了'", () => {
    assert.deepEqual(oldValues("We dumped Mailgun for Postmark as the transactional email provider."), [["mailgun"]]);
    assert.deepEqual(oldValues("Postmark replaces Mailgun for transactional email."), [["mailgun"]]);
    assert.ok(oldValues("把 Zabbix 撤了，监控换上了 Prometheus。").some((v) => v.includes("zabbix")));
    assert.deepEqual(oldValues("Our team replaces the filters every month."), [], "a lower-case object is a chore, not a value");
  });
});

describe("a titled name and an acting holder (fresh11)", () => {
  it("'Dr. X is acting <role>' holds the role", () => {
    assert.equal(relation("Dr. Ana Pires is the clinical lead of the triage app.", "fact", "Dr. Pires is on sabbatical; Dr. Tomas Veld is acting clinical lead of the triage app until March.", "fact", 0.9)?.kind, "supersedes");
  });
});

describe("a title's full stop ends no clause, and a title names no one", () => {
  it("two titled holders of one role are two people", () => {
    const r = responsibilityReading("The on-call lead for the payroll service is Dr. Chen.", "The on-call lead for the payroll service is Dr. Reyes.");
    assert.ok(r && r !== "two things", JSON.stringify(r));
    assert.deepEqual(r.onlyNew, ["chen"]);
    assert.deepEqual(r.onlyOld, ["reyes"]);
  });
  it("one holder named with and without the title is one person", () => {
    assert.equal(responsibilityReading("Prof. Lindqvist is now the safety officer for the cold lab.", "The safety officer for the cold lab is Lindqvist."), null);
  });
  it("a project's manager and its contact person are two roles (a longer Chinese role word)", () => {
    assert.equal(responsibilityReading("物流平台的项目经理是郑凯。", "物流平台的对接人是罗敏。"), "two things");
  });
});

describe("a Chinese task label with a modifier more is the same task (fresh11)", () => {
  it("'年中盘点' and '盘点进度' report on one task; two warehouses are two", () => {
    assert.equal(relation("三号库季度盘点：完成 30%。", "task_state", "三号库盘点进度：已经盘完一半。", "task_state", 0.9)?.kind, "supersedes");
    assert.equal(relation("三号库季度盘点：完成 30%。", "task_state", "五号库盘点进度：完成 60%。", "task_state", 0.9), null);
  });
});

describe("a nickname and a colon say who spoke", () => {
  it("two people giving two values for one attribute, seconds apart, are a reported conflict", () => {
    assert.equal(relation("阿峰：日志系统用 Loki。", "fact", "小蔡：日志系统用 ELK。", "fact", 0.93, 30_000)?.kind, "conflict");
  });
});

describe("a part number named by its distinctive tail", () => {
  it("'the G071' names the STM32G071 a memory holds", () => {
    assert.ok(replacesNamedValue("We ditched the G071, rev D moves to an RP2040.", "The sensor board uses an STM32G071 MCU."));
    assert.ok(replacesNamedValue("不再用 3080 了，训练机换成了 A100。", "训练机用的是 RTX3080 显卡。"));
  });
  it("a short number or a plain word is no tail", () => {
    assert.equal(replacesNamedValue("We ditched the 71, rev D moves to an RP2040.", "The sensor board uses an STM32G071 MCU."), false);
  });
});

// fresh12, written without looking at the rules: a verb whose object is one of a set, a number set by a verb of
// setting, a commit title's verb, a Chinese verb of discarding after the name it discards. Sentences in no case file.
describe("a second object of a verb of inclusion adds; a number set by a verb replaces (fresh12)", () => {
  it("what a thing accepts or supports is a set: another name adds to it", () => {
    assert.equal(relation("The bakery accepts Visa cards.", "fact", "The bakery accepts Amex cards.", "fact", 0.93), null);
    assert.equal(relation("这个插件支持 VS Code。", "fact", "这个插件支持 JetBrains IDE。", "fact", 0.92), null);
    assert.equal(relation("The bakery accepts Visa cards.", "fact", "The bakery stopped taking Visa; it accepts Amex cards now.", "fact", 0.9)?.kind, "supersedes", "a change said in so many words still replaces");
  });
  it("one tool for a role is still one slot", () => {
    assert.equal(relation("We use Postgres as the orders database.", "fact", "We use MySQL as the orders database.", "fact", 0.95)?.kind, "supersedes");
  });
  it("a noun set to a number by a verb of setting is that noun's number", () => {
    assert.equal(relation("The nightly build timeout is 40 minutes.", "fact", "We raised the nightly build timeout to 55 minutes.", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("Chess club annual dues: £30.", "fact", "The committee voted to set the chess club annual dues at £35, starting in March.", "fact", 0.88)?.kind, "supersedes");
  });
  it("a commit title's verb announces the change", () => {
    assert.equal(relation("Minimum supported Node version (engines): 18.", "fact", "build: bump minimum supported Node version (engines) to 20 (fetch is global)", "fact", 0.93)?.kind, "supersedes");
  });
  it("a name, then a verb that discards it, names the value replaced", () => {
    assert.ok(oldValues("Trello 太难用了直接弃了，全员换 Linear 了").some((v) => v.includes("trello")));
    assert.equal(relation("我们的看板工具用 Trello。", "fact", "Trello 太难用了直接弃了，全员换 Linear 了", "fact", 0.88)?.kind, "supersedes");
  });
});

describe("a verb of discarding in any form names what it discards (fresh12)", () => {
  it("'replacing A with B', 'we swap A for B'", () => {
    assert.deepEqual(oldValues("Support desk: replacing Zendesk with Help Scout for the EU shops"), [["zendesk"]]);
    assert.deepEqual(oldValues("From June we swap Mailchimp for Buttondown."), [["mailchimp"]]);
  });
});

describe("'X is no longer used for Y' names X (fresh12)", () => {
  it("the thing it was used for is not a value replaced", () => {
    assert.deepEqual(oldValues("Travis is no longer used for the Orbit nightly builds; GitHub Actions runs them now."), [["travis"]]);
    assert.equal(relation("The Orbit docs site is hosted on Netlify.", "fact", "Hugo is no longer used for the Orbit docs site; it's built with Astro now.", "fact", 0.86), null);
  });
});

describe("a Chinese 'from <date> on' says the value holds from then (fresh12)", () => {
  it("a new value from a date replaces the old one", () => {
    assert.equal(relation("门禁系统的日志保留180天。", "fact", "自9月1日起，门禁系统的日志保留期限为两年。", "fact", 0.94)?.kind, "supersedes");
  });
  it("a place one starts from is no time", () => {
    assert.equal(relation("巡检路线覆盖三个泵站。", "fact", "从北门开始，巡检路线也经过水塔。", "fact", 0.9), null);
  });
});

describe("a value put away names what it replaces (fresh12)", () => {
  it("'the X are on the shelf now', 'X is mothballed'", () => {
    assert.ok(oldValues("Moved the kiosks to Raspberry Pi 5, the Arduinos are in storage now").some((v) => v.includes("arduino")));
    assert.ok(oldValues("The Jenkins box is mothballed, Buildkite runs every pipeline.").some((v) => v.includes("jenkin")));
  });
});

describe("what two Chinese statements both open with is the thing, not a shared attribute (fresh12)", () => {
  it("'目前' before another attribute of the same thing replaces nothing", () => {
    assert.equal(relation("报修小程序后端使用 Go 1.22。", "fact", "报修小程序目前支持短信登录。", "fact", 0.93), null);
  });
  it("the same attribute after the shared opening still does", () => {
    assert.equal(relation("报修小程序后端使用 Go。", "fact", "报修小程序后端目前用 Rust。", "fact", 0.93)?.kind, "supersedes");
  });
});

describe("a change said in so many words may be of the phrase two Chinese statements open with", () => {
  it("'最后定了' replaces what the phrase was", () => {
    assert.equal(relation("书房吊灯选的是黄铜色的那款", "fact", "书房吊灯最后定了 Flos 的白色款", "fact", 0.94)?.kind, "supersedes");
  });
});

// fresh13, written without looking at the rules: one quantity of one unit, said of the same thing with another
// word for how it is measured ("weighs" / "weighed in at", "costs" / "raised the price to"). Sentences in no case file.
describe("one quantity in one unit of the same thing, however it is linked (fresh13)", () => {
  it("replaces the older quantity", () => {
    assert.equal(relation("Mochi weighs 6 kg.", "fact", "Mochi weighed in at 5.4 kg at the vet today, finally slimming down.", "fact", 0.9)?.kind, "supersedes");
    assert.equal(relation("The Harbour Lane reading room seats 40 people.", "fact", "After the refit the Harbour Lane reading room fits 52 people.", "fact", 0.9)?.kind, "supersedes");
  });
  it("two measures in one unit of two attributes of one named thing stay two", () => {
    assert.equal(relation("Mochi weighs 6 kg.", "fact", "Mochi eats 0.2 kg of kibble a day.", "fact", 0.88), null);
  });
});

describe("a Chinese change said as a verb and its object, and a final confirmation (fresh13)", () => {
  it("'换号了', '最终确认'", () => {
    assert.equal(relation("物业前台电话：0755-26001122。", "fact", "物业前台换号了，新号码 0755-26009988。", "fact", 0.96)?.kind, "supersedes");
    assert.equal(relation("春茗晚宴人数大约 60 人。", "fact", "春茗晚宴人数最终确认是 72 人，按 8 桌备。", "fact", 0.93)?.kind, "supersedes");
  });
});

describe("one quantity said of two people is two things", () => {
  it("a colleague's gym fee does not replace the user's", () => {
    const [va, vb] = vectorsAt(0.9);
    const existing = { id: "m1", content: "用户的健身卡年费是 1800 元。", type: "fact", subject: "user", source: "extractor", confidence: 0.8, validUntil: null, confirmedAt: T0, createdAt: T0 } as unknown as MemoryRecord;
    const candidate = { content: "用户同事的健身卡年费是 2400 元。", type: "fact" as const, subject: "third-party:同事", source: "extractor" as const, confidence: 0.6, validUntil: null, vector: vb, now: T0 + 10 * DAY };
    assert.equal(relate(candidate, existing, va, config, t), null);
  });
});

describe("a generic head before the task's label (fresh13)", () => {
  it("'Status report: <task>, <count>' names the task after the head", () => {
    assert.deepEqual(taskLabelOf("Status report: payroll audit, 3 of 5 sites visited."), ["payroll", "audit"]);
    assert.equal(taskLabelOf("Quick one on the vans: depot B got two more, so 5 of 8 are done."), null, "after an opener the rest is the message");
    assert.equal(relation("Status report: payroll audit, 3 of 5 sites visited.", "task_state", "Status report: fire drill training, 12 of 40 staff trained.", "task_state", 0.9), null);
    assert.equal(relation("周报：仓库盘点，完成 3/10 排。", "task_state", "周报：消防演练，完成 2/4 场。", "task_state", 0.9), null);
  });
});

describe("kinds from fresh14 (sentences in no case file)", () => {
  it("a statement that vouches for part of the earlier state ('same X as before', '其余照旧') continues it, it does not replace it", () => {
    assert.equal(relation("Nurse Okafor covers ward 6 on the cardiology floor.", "fact", "Nurse Okafor is on weekends now, 08:00-20:00, same ward as before.", "fact", 0.9), null);
    assert.equal(relation("4号仓库存放冷冻水产。", "fact", "4号仓库现在改成晚上10点收货，存放的货品照旧。", "fact", 0.9), null);
    assert.equal(relation("The Tuesday ferry leaves Pier 3 at 07:15.", "fact", "The Tuesday ferry now leaves at 07:45, same pier as usual.", "fact", 0.93, 20 * DAY)?.kind, undefined);
    // "As usual" before a verb is the value: it contradicts, it vouches for nothing.
    assert.ok(!keepsPartAsBefore("园区班车：周六照常发车，每小时一班。"));
    assert.ok(keepsPartAsBefore("园区班车换了司机，线路照旧。"));
    // Naming the value it replaces still replaces it.
    assert.equal(relation("The Tuesday ferry leaves Pier 3 at 07:15.", "fact", "The Tuesday ferry no longer leaves at 07:15; it's 07:45 now, same pier as before.", "fact", 0.93)?.kind, "supersedes");
  });

  it("a name given another version, the rest said in the other language, is one slot; two named places stay two", () => {
    assert.deepEqual(versionedSlotOf("Kiosk app minimum iOS version 现在是 iOS 16。", "Kiosk app 最低支持 iOS 14。")?.onlyNew, ["16"]);
    assert.equal(relation("Kiosk app 最低支持 iOS 14。", "fact", "Kiosk app minimum iOS version 现在是 iOS 16。", "fact", 0.93)?.kind, "supersedes");
    assert.equal(versionedSlotOf("the Lisbon office runs Python 3.12", "Porto 办公室用的是 Python 3.10"), null);
  });

  it("a clock time named as the old value in Chinese is one value; the rest said to stay does not keep it", () => {
    assert.ok(replacesNamedValue("通知：自下月起，夜班交接时间由7:30调整为8:00，其余安排不变。", "夜班每天7:30交接。"));
    assert.equal(relation("夜班每天7:30交接。", "fact", "通知：自下月起，夜班交接时间由7:30调整为8:00，其余安排不变。", "fact", 0.93)?.kind, "supersedes");
  });

  it("a long message that names the value it replaces replaces it, though another part stays as it was", () => {
    const olds = oldValues("周会过了下季度预算。 另外报销审批那块钉钉已经停用了，现在都走飞书，考勤还是企业微信不变。").flat();
    assert.ok(olds.includes("钉") && !olds.some((t) => /报销|审批|块/.test(t)), JSON.stringify(olds));
    assert.equal(relation("报销审批用的是钉钉。", "fact", "周会过了下季度预算。 另外报销审批那块钉钉已经停用了，现在都走飞书，考勤还是企业微信不变。", "fact", 0.9)?.kind, "supersedes");
  });

  it("a role held 'this season' or 'for 2027' is still that role; 'Our' opens it as 'our' does", () => {
    assert.equal(relation("Head gardener: Priya Raman.", "fact", "Our head gardener this year is Oskar Lind.", "fact", 0.88)?.kind, "supersedes");
    assert.equal(relation("The quartermaster is Ada Moss.", "fact", "Our quartermaster for 2027 is Ben Ortiz.", "fact", 0.88)?.kind, "supersedes");
    assert.equal(relation("Quartermaster: Ada Moss.", "fact", "Our quartermaster this season is Ben Ortiz.", "fact", 0.85)?.kind, "supersedes", "a one-word role before a colon");
  });

  it("with only a cue, a value of the same kind said of the thing two Chinese statements open with is the same attribute", () => {
    assert.equal(relation("档案室在三楼西头。", "fact", "档案室现在在五楼了，电梯出来右转。", "fact", 0.955)?.kind, "supersedes");
    assert.equal(relation("档案室在三楼西头。", "fact", "档案室现在有 4 台扫描仪。", "fact", 0.93), null);
  });
});

describe("kinds from fresh15, in sentences of no case file", () => {
  it("switching a device on or off operates it; it changes no value", () => {
    assert.equal(announcesChange("The projectors must be switched off after the last class."), false);
    assert.ok(isAdditive("also, the kilns need a 2h cool-down before anyone switches them off"));
    assert.ok(announcesChange("We switched to Mailgun last week."));
    assert.ok(announcesChange("We switched on-call to weekly rotations."), "'on-call' is no 'on'");
  });

  it("a Chinese time range ('两点到五点') is no change", () => {
    assert.equal(announcesChange("周日下午两点到五点开放参观。"), false);
    assert.equal(announcesChange("早班 6点到14点。"), false);
    assert.ok(announcesChange("会员价涨到 25 元了。"));
    assert.ok(isAdditive("周末我们也在东门摆摊，十点到两点。"));
  });

  it("a value with a unit symbol is one value when named as replaced", () => {
    assert.deepEqual(oldValues("The freezer setpoint changed from -18°C to -20°C last night."), [["18", "c"]]);
    assert.deepEqual(oldValues("Deposit went from €500 to €750."), [["500"]]);
    assert.deepEqual(oldValues("会员折扣从 15% 调整为 20%。"), [["15"]]);
    assert.equal(relation("冷库温度设定是 -18°C。", "fact", "Cold store setpoint changed from -18°C to -20°C after the audit.", "fact", 0.84)?.kind, "supersedes");
  });

  it("a name in Latin script right before 换成 is the value it replaces", () => {
    assert.equal(oldValues("打印服务 CUPS 换成 PaperCut 了，下周生效").length, 1);
    assert.deepEqual(oldValues("客户端 Electron 改成 Tauri 了"), [["electron"]]);
    assert.ok(replacesNamedValue("打印服务 CUPS 换成 PaperCut 了", "Print jobs go through CUPS on the office server."));
    assert.deepEqual(oldValues("我们换成 PaperCut 了"), [], "a pronoun before it is no value");
  });

  it("a choice said to be settled, then its value, announces the value", () => {
    assert.ok(announcesChange("年会场地定了，是滨江酒店。"));
    assert.ok(announcesChange("The keynote speaker is confirmed: Dr. Osei."));
    assert.equal(announcesChange("闹钟定了六点"), false, "no value after a comma or colon");
    assert.equal(relation("今年年会场地是凯悦酒店。", "fact", "年会场地定了，是滨江酒店。", "fact", 0.95)?.kind, "supersedes");
  });

  it("a holder named by kinship before the name holds the role", () => {
    assert.ok(responsibilityReading("302 室的房东联系人是他儿子李想，以后找他。", "302 室的房东联系人是李老师。") !== null);
    assert.ok(responsibilityReading("The landlord contact for flat 4 is now his son Peter.", "The landlord contact for flat 4 is Mr Grant.") !== null);
    assert.equal(relation("302 室的房东联系人是李老师。", "fact", "302 室的房东联系人是他儿子李想，以后找他。", "fact", 0.95)?.kind, "supersedes");
  });
});

describe("kinds from fresh16, in sentences of no case file", () => {
  it("something said to be available is one more, not the only one", () => {
    assert.ok(isAdditive("A Cantonese interpreter is available on weekend mornings starting next month."));
    assert.equal(relation("On weekend mornings the clinic has interpreters for Polish.", "fact", "A Cantonese interpreter is available on weekend mornings, starting from next month.", "fact", 0.88), null);
    assert.equal(isAdditive("Only the Cantonese interpreter is available on weekend mornings now."), false);
  });

  it("two lines under one progress label about two parts of the task are two tasks", () => {
    assert.equal(sameTask("Data migration: the users table is 60% copied.", "Data migration: the orders table has not started.", taskFrameSimilarity), false);
    assert.equal(sameTask("装修进度：主卧地板铺完了。", "装修进度：次卧地板还没铺。", taskFrameSimilarity), false);
    assert.ok(sameTask("Data migration: the users table is 90% copied.", "Data migration: the users table is 60% copied.", taskFrameSimilarity));
    assert.ok(sameTask("Kitchen refit: cabinets are in.", "Kitchen refit: tiles done.", taskFrameSimilarity), "two parts not told apart by a shared noun: one task");
    assert.ok(sameTask("Billing cutover: stage 2 (business accounts) is live.", "Billing cutover: stage 1 (retail accounts) is live.", taskFrameSimilarity), "stages of a series move one task on");
    assert.ok(sameTask("门店系统对接进度：会员模块也联调完了，只剩库存模块。", "门店系统对接进度：收银模块联调完了，会员模块还没开始。", taskFrameSimilarity), "a line that names the other's part reports on the whole");
    assert.ok(sameTask("退货单进度：已处理 85 单，剩 15 单。", "退货单进度：今天已处理 40 单，还剩 60 单。", taskFrameSimilarity), "'今天已' / '已' is no other part");
    assert.ok(sameTask("官网改版进度：文案已交付 60%，等设计定稿。", "官网改版进度：设计图已交付，文案还没动。", taskFrameSimilarity), "'文案已' / '设计图已' split a verb phrase");
    assert.ok(sameTask("Data migration: the orders table is copied too, only the invoices table is left.", "Data migration: the users table is copied, the orders table has not started.", taskFrameSimilarity));
  });

  it("a hyphenated name with a capital after the hyphen is a value, first after a label too", () => {
    assert.ok(sameSlot("Staff Wi-Fi network name: Quayside-Crew.", "Staff Wi-Fi network name: QuaysideStaff-2G."));
  });

  it("'a new …' introduces a thing; it is no cue that a value changed", () => {
    assert.equal(relation("Pump P-4 at the north yard was serviced in March.", "fact", "Pump P-4 at the north yard has a new pressure gauge.", "fact", 0.9, 20_000)?.kind, undefined);
  });

  it("a Chinese change verb before 的 modifies a noun; it announces nothing", () => {
    assert.equal(announcesChange("系统迁移的负责人是周敏。"), false);
    assert.equal(announcesChange("版本升级的窗口是每周二晚上。"), false);
    assert.ok(announcesChange("系统迁移到了新机房。"));
  });
});

describe("from A, a verb of raising or moving, to B (fresh16)", () => {
  it("names A as the value replaced", () => {
    assert.equal(oldValues("前端 Vue 版本从 2.6 升到了 3.4，其余不变。").length, 1);
    assert.ok(oldValues("客服组从 4 人扩到了 7 人").flat().includes("4"));
    assert.deepEqual(oldValues("从杭州到上海的班车每天两趟"), [], "a route names no old value");
    assert.equal(relation("前端用 Vue 2.6 + Vite。", "fact", "前端 Vue 版本从 2.6 升到了 3.4，其余不变。", "fact", 0.9)?.kind, "supersedes");
  });
});

describe("a Chinese statement of what a thing is, said again with another short value (fresh16)", () => {
  it("the same subject before 是, a different short value after it, is one slot", () => {
    assert.equal(relation("二号仓库的夜班保安是老何。", "fact", "二号仓库的夜班保安现在是小邓。", "fact", 0.96)?.kind, "supersedes");
    assert.equal(relation("样品间的钥匙保管人是林工。", "fact", "样品间的钥匙保管人现在是许工。", "fact", 0.96)?.kind, "supersedes");
  });
  it("another subject, or a value said as an addition, is not", () => {
    assert.equal(relation("二号仓库的夜班保安是老何。", "fact", "三号仓库的夜班保安是小邓。", "fact", 0.95), null);
    assert.equal(relation("二号仓库的夜班保安是老何。", "fact", "二号仓库的夜班保安也有小邓。", "fact", 0.95), null);
  });
  it("a role noun with no agent suffix (调度, 主席, 主任) is a role", () => {
    assert.ok(responsibilityReading("车队的调度现在是孙强。", "车队的调度是高峰。") !== null);
    assert.ok(responsibilityReading("业委会主席换成了陈立。", "业委会主席是吴刚。") !== null);
    assert.ok(responsibilityReading("The board's chairperson is now Ada Lin.", "The board's chairperson is Tom Ruiz.") !== null, "a noun in -person");
  });
});

describe("a clock time is one value, and a value rejected as it was before (fresh17)", () => {
  it("an arrow or 'from … to' between clock times names the whole earlier time", () => {
    assert.ok(oldValues("Quiet hours start 22:00 → 23:30 from next week.").some((v) => v.join(" ").includes("22 00")), JSON.stringify(oldValues("Quiet hours start 22:00 → 23:30 from next week.")));
    assert.ok(oldValues("The nightly export moved from 01:15 to 03:45.").some((v) => v.join(" ") === "01 15"), JSON.stringify(oldValues("The nightly export moved from 01:15 to 03:45.")));
    assert.equal(relation("The west gate opens at 06:00.", "fact", "Quiet hours start 22:00 → 23:30 from next week.", "fact", 0.8), null, "another time sharing its minutes is no value named");
  });
  it("', not A like before / as in the old …' names A", () => {
    assert.ok(oldValues("The lift must carry 1,600 kg, not 1,000 like the old spec said.").flat().includes("000"), JSON.stringify(oldValues("The lift must carry 1,600 kg, not 1,000 like the old spec said.")));
    assert.ok(oldValues("Invoices are due in 45 days, not 30 as before.").flat().includes("30"));
    assert.deepEqual(oldValues("Invoices are due in 45 days, not counting weekends."), []);
    assert.equal(relation("The lift's rated load is 1,000 kg.", "constraint", "The lift must carry 1,600 kg, not 1,000 like the old spec said.", "constraint", 0.88)?.kind, "supersedes");
  });
});

describe("a progress line that opens with what was done reports on the whole task (fresh17)", () => {
  it("two lines under one label opening with verbs are one task", () => {
    assert.ok(sameTask("Roof repair: finished the gutters on the north side.", "Roof repair: started on the flashing around the chimney.", taskFrameSimilarity));
    assert.ok(sameTask("Cellar survey: reached the second vault, damp patches logged.", "Cellar survey: stopped at the second vault until the pump arrives.", taskFrameSimilarity));
  });
  it("two lines opening with two parts of the task are still two", () => {
    assert.equal(sameTask("Move: the blue room packed, boxes labelled.", "Move: the green room half packed.", taskFrameSimilarity), false);
    assert.equal(sameTask("Painting: the front fence done, two coats.", "Painting: the back fence primed.", taskFrameSimilarity), false);
  });
});

describe("a Chinese stopped state whose object is an address (fresh17)", () => {
  it("'不在 + a numbered place + 了' names the place", () => {
    assert.ok(oldValues("仓库搬了，不在滨江路15号了，现在在工业园三期。").flat().join("").includes("15"), JSON.stringify(oldValues("仓库搬了，不在滨江路15号了，现在在工业园三期。")));
    assert.equal(relation("仓库地址是滨江路15号一楼。", "fact", "仓库搬了，不在滨江路15号了，现在在工业园三期。", "fact", 0.9)?.kind, "supersedes");
  });
});
