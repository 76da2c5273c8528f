import { strict as assert } from "node:assert";
import { daysApart, timesIn, type TimeSpan } from "../../../src/core/text/time.js";
import { entitiesIn, memoryEntities } from "../../../src/core/text/entities.js";
import { askedTime, closeness, saidAround } from "../../../src/core/recall/temporal.js";
import { entityShare } from "../../../src/core/recall/entityMatch.js";

/** 1 Nov 2023, 10:00 UTC: the "now" every relative time below is read against. */
const NOW = Date.UTC(2023, 10, 1, 10);
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);
const iso = (s: TimeSpan) => `${new Date(s.from).toISOString().slice(0, 10)}..${new Date(s.to).toISOString().slice(0, 10)}`;

describe("text/time: the times a text names", () => {
  it("reads English times as wide as what they name, in the past when ambiguous", () => {
    assert.deepEqual(timesIn("the boiler was serviced in March", NOW).map(iso), ["2023-03-01..2023-04-01"]);
    assert.deepEqual(timesIn("we bought the flat back in 2016", NOW).map(iso), ["2016-01-01..2017-01-01"]);
    assert.deepEqual(timesIn("the allotment flooded last spring", NOW).map(iso), ["2023-03-01..2023-06-01"]);
    assert.deepEqual(timesIn("she visited Lisbon last September", NOW).map(iso), ["2023-09-01..2023-10-01"]);
    assert.deepEqual(timesIn("she visited Lisbon last December", NOW).map(iso), ["2022-12-01..2023-01-01"]);
    assert.deepEqual(timesIn("the outage was the day before yesterday", NOW).map(iso), ["2023-10-30..2023-10-31"]);
    assert.deepEqual(timesIn("invoice paid on 14 February 2021", NOW).map(iso), ["2021-02-14..2021-02-15"]);
  });

  it("reads Chinese times, and a Chinese text's English ones", () => {
    assert.deepEqual(timesIn("前年冬天搬的家", NOW).map(iso), ["2021-12-01..2022-03-01"]);
    assert.deepEqual(timesIn("上个月换了新工作", NOW).map(iso), ["2023-10-01..2023-11-01"]);
    assert.deepEqual(timesIn("2019年去过一次西藏", NOW).map(iso), ["2019-01-01..2020-01-01"]);
    assert.deepEqual(timesIn("前天下午修好了热水器", NOW).map(iso), ["2023-10-30..2023-10-31"]);
  });

  it("finds no time in numbers that are not times", () => {
    assert.deepEqual(timesIn("the van seats 9 and costs 2400 a month to lease", NOW).filter((s) => s.to - s.from > 40 * 86_400_000), []);
    assert.deepEqual(timesIn("port 8080 is taken", NOW), []);
    assert.deepEqual(timesIn("我的快递单号是 773201945516", NOW), []);
  });

  it("measures the days between spans, zero when they overlap", () => {
    const may = { from: day(2023, 5, 1), to: day(2023, 6, 1) };
    assert.equal(daysApart(may, { from: day(2023, 5, 20), to: day(2023, 5, 21) }), 0);
    assert.equal(daysApart(may, { from: day(2023, 6, 11), to: day(2023, 6, 12) }), 10);
    assert.equal(daysApart({ from: day(2023, 6, 11), to: day(2023, 6, 12) }, may), 10);
  });
});

describe("recall/temporal: the time a question asks about", () => {
  it("searches the asked time and the month after it, when memories tell of it", () => {
    const asked = askedTime("What did the plumber say in August?", NOW) as TimeSpan;
    assert.equal(iso(asked), "2023-08-01..2023-09-01");
    const f = saidAround({ scope: "project:a" }, asked);
    assert.equal(f.scope, "project:a");
    assert.deepEqual(f.createdIn, { from: day(2023, 8, 1), to: day(2023, 9, 1) + 31 * 86_400_000 });
    assert.equal(askedTime("Who maintains the billing service?", NOW), null);
  });

  it("is closest for a memory that tells of the asked time, resolved against when it was said", () => {
    const asked = askedTime("what happened with the car last weekend?", NOW) as TimeSpan;
    const toldThen = closeness({ content: "the car broke down on Saturday", createdAt: Date.UTC(2023, 9, 30, 9) }, asked);
    const toldLongAgo = closeness({ content: "the car broke down", createdAt: day(2023, 6, 2) }, asked);
    const namesAnotherTime = closeness({ content: "the car was serviced two months ago", createdAt: Date.UTC(2023, 9, 30, 9) }, asked);
    assert.equal(toldThen, 1);
    assert.ok(toldLongAgo < 0.01, `a memory from June is far from last weekend (${toldLongAgo})`);
    assert.ok(namesAnotherTime < toldThen, "the time a memory names counts, not only when it was said");
    // A wide asked span falls off more slowly than a narrow one.
    const year = askedTime("anything about the car in 2023?", NOW) as TimeSpan;
    const early2024 = { content: "sold the car", createdAt: day(2024, 1, 20) };
    assert.ok(closeness(early2024, year) > closeness(early2024, asked));
  });
});

describe("text/entities: the named things a text mentions", () => {
  it("reads English names as terms: lowercased, possessives dropped, multi-word names joined and split", () => {
    const e = entitiesIn("Tomasz's beagle Biscuit sleeps at the Old Vic Theatre on Fridays.");
    for (const t of ["tomasz", "biscuit", "old_vic_theatre", "old", "vic", "theatre"]) assert.ok(e.includes(t), `${t} in ${e.join(" ")}`);
    assert.ok(!e.includes("beagle"), "a common noun is no name");
    assert.deepEqual(entitiesIn("the cache is warm and the queue is empty"), []);
  });

  it("reads a speaker label, and Chinese names by the words around them", () => {
    assert.ok(entitiesIn("Priya: the standup moved to Zoom").includes("priya"));
    const zh = entitiesIn("我周末去了青岛，顺便看了《流浪地球》，刘工说Grafana要升级");
    for (const t of ["青岛", "流浪地球", "刘", "grafana"]) assert.ok(zh.includes(t), `${t} in ${zh.join(" ")}`);
  });

  it("adds who a memory is about when that is someone named, not the generic subjects", () => {
    assert.ok(memoryEntities({ content: "prefers window seats", context: null, subject: "Ingrid" }).includes("ingrid"));
    assert.deepEqual(memoryEntities({ content: "prefers window seats", context: null, subject: "user" }), []);
  });
});

describe("recall/entityMatch: how much of what the question names a candidate names", () => {
  it("weights a name by how few candidates share it", () => {
    const share = entityShare(["ingrid", "biscuit"], ["Ingrid walks Biscuit daily", "Ingrid drinks tea", "Ingrid plays cello", "Ingrid's flat is in Leeds"]);
    assert.ok((share[0] as number) > 0.9, `the one naming both (${share[0]})`);
    assert.ok((share[1] as number) < 0.2, `a name every candidate shares adds little (${share[1]})`);
    assert.deepEqual(entityShare([], ["a"]), [0]);
    assert.deepEqual(entityShare(["mel"], ["Melanie paints", "smell of paint"]), [0, 0], "a short name does not match inside a word");
    assert.equal(entityShare(["老周"], ["老周的猫叫团子", "猫粮放在柜子里"])[0], 1);
  });
});

describe("recall/temporal: a weekday asked of what usually happens (fresh15)", () => {
  it("a weekday alone, in a question not about the past, asks about every such day: no date", () => {
    assert.equal(askedTime("Where do we park the generator on Friday nights?", NOW), null);
    assert.equal(askedTime("周三下午谁值班？", NOW), null);
    assert.equal(askedTime("Who opens the pottery studio on Sundays?", NOW), null);
  });
  it("with a determiner or in the past it is a date", () => {
    assert.notEqual(askedTime("What did the inspector say on Friday?", NOW), null);
    assert.notEqual(askedTime("上周三下午谁值的班？", NOW), null);
    assert.notEqual(askedTime("周三下午谁来过？", NOW), null);
    assert.notEqual(askedTime("Who was on call last Sunday?", NOW), null);
  });
});
