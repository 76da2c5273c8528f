import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cliSandbox, type CliRun as Run } from "../helpers/cliProcess.js";

/** stderr without LanceDB's own deprecation warnings. */
function errors(stderr: string): string {
  return stderr
    .split("\n")
    .filter((l) => l.trim() !== "" && !/\bWARN\b/.test(l))
    .join("\n");
}

describe("integration: the hindsight CLI", function () {
  this.timeout(120_000);
  const box = cliSandbox();

  const cli = box.cli;

  it("summarize with --propose files a proposal; review lists, rejects and refuses a bad action", async () => {
    for (const text of ["The billing API returns amounts in cents.", "The billing API paginates with cursors."]) {
      const r = await cli(["remember", text, "--type", "fact", "--subject", "billing api", "--scope", "project:t"]);
      assert.equal(r.code, 0, errors(r.stderr));
    }
    const summary = await cli(["summarize", "--subject", "billing api", "--propose", "--json", "--scope", "project:t"]);
    assert.equal(summary.code, 0, errors(summary.stderr));
    const parsed = JSON.parse(summary.stdout) as { summary: string; source_ids: string[]; proposal: { id: string; status: string } };
    assert.equal(parsed.proposal.status, "pending");
    const listed = await cli(["review", "list", "--status", "pending", "--scope", "project:t"]);
    assert.match(listed.stdout, /pending/);
    assert.match(listed.stdout, /1 proposals/);
    const rejected = await cli(["review", "reject", parsed.proposal.id.slice(0, 8), "--json", "--scope", "project:t"]);
    assert.equal((JSON.parse(rejected.stdout) as Array<{ status: string }>)[0]?.status, "rejected");
    const bad = await cli(["review", "explode", "--scope", "project:t"]);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /INVALID_INPUT: review: unknown action "explode"/);
  });

  it("remember, recall --json, list and forget --match in a scope", async () => {
    const remembered = await cli(["remember", "The staging database runs Postgres 16.", "--scope", "project:t"]);
    assert.equal(remembered.code, 0, errors(remembered.stderr));
    const said = /^stored ([0-9a-f]{8}) "The staging database runs Postgres 16\." \(L3 fact, confidence 0\.80\)\n\(remember stores your text exactly as given; .*hindsight ingest .*\)\n$/.exec(remembered.stdout);
    assert.ok(said, remembered.stdout);
    const short = said[1]!;
    assert.ok(existsSync(join(box.home, "store")), "the store lives under HINDSIGHT_HOME");

    const recalled = await cli(["recall", "Which Postgres version does staging run?", "--scope", "project:t", "--json"]);
    assert.equal(recalled.code, 0, errors(recalled.stderr));
    const r = JSON.parse(recalled.stdout) as { scope: string; memories: Array<{ id: string; content: string; factors: Record<string, number> }>; text: string };
    assert.equal(r.scope, "project:t");
    const id = r.memories[0]!.id;
    assert.equal(id.slice(0, 8), short, "the short id is the first 8 characters of the id");
    assert.equal(r.memories[0]?.content, "The staging database runs Postgres 16.");
    assert.deepEqual(Object.keys(r.memories[0]!.factors).sort(), ["access_boost", "confidence", "relevance", "time_decay"]);
    assert.equal(r.text, `- [id ${id}] (fact, confidence 0.80) The staging database runs Postgres 16.`);

    const listed = await cli(["list", "--scope", "project:t"]);
    assert.equal(listed.code, 0, errors(listed.stderr));
    assert.match(listed.stdout, new RegExp(`^${short}  active\\s+L3 fact\\s+0\\.80\\s+The staging database runs Postgres 16\\.$`, "m"));
    assert.match(listed.stdout, /^1 memories$/m);

    const elsewhere = await cli(["list", "--scope", "project:other"]);
    assert.match(elsewhere.stdout, /^0 memories$/m);

    const forgot = await cli(["forget", "--match", "postgres", "--yes", "--scope", "project:t"]);
    assert.equal(forgot.code, 0, errors(forgot.stderr));
    assert.match(forgot.stdout, new RegExp(`^forgot ${short}  active\\s+L3 fact\\s+The staging database runs Postgres 16\\.\nforgot 1 memory and 0 raw turns\n$`));

    const after = await cli(["list", "--scope", "project:t"]);
    assert.match(after.stdout, /^0 memories$/m);
    const none = await cli(["recall", "Which Postgres version does staging run?", "--scope", "project:t", "--json"]);
    assert.deepEqual((JSON.parse(none.stdout) as { memories: unknown[] }).memories, []);
  });

  it("remember --replaces (repeatable) supersedes the short ids shown by recall; a bad id fails and writes nothing", async () => {
    const idOf = (r: Run) => /^stored ([0-9a-f]{8}) /.exec(r.stdout)?.[1];
    const a = idOf(await cli(["remember", "The weekly sync is on Mondays at 10:00.", "--type", "fact", "--scope", "project:t"]));
    const b = idOf(await cli(["remember", "The weekly sync uses the Huddle room.", "--type", "fact", "--scope", "project:t"]));
    const other = idOf(await cli(["remember", "The weekly sync is on Fridays.", "--type", "fact", "--scope", "project:other"]));
    assert.ok(a && b && other);
    const recalled = await cli(["recall", "When is the weekly sync?", "--scope", "project:t"]);
    assert.match(recalled.stdout, new RegExp(`^${a}  L3 fact\\s+0\\.80  The weekly sync is on Mondays at 10:00\\.$`, "m"));

    const bad = await cli(["remember", "The weekly sync moved to Tuesdays, online.", "--replaces", a, "--replaces", other, "--scope", "project:t"]);
    assert.notEqual(bad.code, 0);
    assert.equal(bad.stdout, "");
    assert.match(errors(bad.stderr), new RegExp(`^hindsight: NOT_FOUND: --replaces: no memory in project:t has an id starting with "${other}"$`, "m"));
    assert.match((await cli(["list", "--scope", "project:t"])).stdout, /^2 memories$/m);

    const w = await cli(["remember", "The weekly sync moved to Tuesdays, online.", "--replaces", a, "--replaces", b, "--scope", "project:t", "--json"]);
    assert.equal(w.code, 0, errors(w.stderr));
    const written = JSON.parse(w.stdout) as { id: string; action: string; supersedes: string[]; decided_by: string };
    assert.equal(written.action, "superseded");
    assert.deepEqual(written.supersedes.map((x) => x.slice(0, 8)), [a, b]);
    assert.equal(written.decided_by, "caller");
    const all = await cli(["list", "--all", "--json", "--scope", "project:t"]);
    const byId = new Map((JSON.parse(all.stdout) as Array<{ id: string; status: string; superseded_by: string | null }>).map((m) => [m.id.slice(0, 8), m]));
    assert.equal(byId.get(a)?.status, "superseded");
    assert.equal(byId.get(b)?.superseded_by, written.id);
    assert.equal(byId.get(written.id.slice(0, 8))?.status, "active");
    const text = await cli(["remember", "The weekly sync has a shared agenda doc.", "--replaces", written.id.slice(0, 5), "--scope", "project:t"]);
    assert.match(
      text.stdout,
      new RegExp(`^stored [0-9a-f]{8} "The weekly sync has a shared agenda doc\\." \\(L3 fact, confidence 0\\.80\\), replacing ${written.id.slice(0, 8)} "The weekly sync moved to Tuesdays, online\\." \\(the caller named the memories it replaces; decided by the caller\\)\\n`),
    );
  });

  it('remember "" fails with a clear error and a non-zero exit', async () => {
    const r = await cli(["remember", "", "--scope", "project:t"]);
    assert.notEqual(r.code, 0);
    assert.equal(r.stdout, "");
    assert.match(errors(r.stderr), /^hindsight: INVALID_INPUT: write: content: must not be empty$/m);
  });

  it("remember refuses an unknown --type naming the flag", async () => {
    const r = await cli(["remember", "We use pnpm.", "--type", "opinion", "--scope", "project:t"]);
    assert.notEqual(r.code, 0);
    assert.match(errors(r.stderr), /INVALID_INPUT: --type: must be one of preference, fact, constraint, task_state, event/);
  });

  it("an unknown command prints the usage and exits 2", async () => {
    const r = await cli(["frobnicate"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command "frobnicate"/);
    assert.match(r.stderr, /hindsight remember TEXT/);
  });

  const cases = {
    version: 1,
    cases: [
      {
        id: "timeliness-vitest",
        category: "timeliness",
        lang: "en",
        scope: "project:x",
        steps: [
          { at: "2026-01-12T09:30:00Z", write: { content: "Unit tests are written with Jest.", type: "fact", subject: "unit test framework", confidence: 0.9 } },
          { at: "2026-02-16T14:05:00Z", write: { content: "Unit tests were migrated to Vitest.", type: "fact", subject: "unit test framework", confidence: 0.9 } },
          { at: "2026-02-18T09:00:00Z", recall: { query: "Which test framework do we use for unit tests?", k: 3 }, expect: { top: ["vitest"], excludes: ["jest"] } },
        ],
      },
      {
        id: "noise-greeting",
        category: "noise",
        lang: "en",
        scope: "user:x",
        steps: [
          { at: "2026-01-12T09:30:00Z", ingest: { user: "Hi! Thanks a lot." } },
          { at: "2026-01-12T09:31:00Z", list: {}, expect: { count: 0 } },
        ],
      },
      {
        id: "guard-aws-key",
        category: "guard",
        lang: "en",
        scope: "user:x",
        steps: [
          { at: "2026-01-12T09:30:00Z", write: { content: "My AWS key is AKIAIOSFODNN7EXAMPLE." }, expect: { flagged: true } },
          { at: "2026-01-12T09:31:00Z", list: {}, expect: { count: 0 } },
        ],
      },
    ],
  };

  it("eval runs a cases file: PASS lines, a summary and exit 0", async () => {
    const file = join(box.work, "cases.json");
    await writeFile(file, JSON.stringify(cases));
    const r = await cli(["eval", file]);
    assert.equal(r.code, 0, errors(r.stderr));
    const lines = r.stdout.trim().split("\n");
    assert.deepEqual(lines.filter((l) => /^(PASS|FAIL) /.test(l)), ["PASS timeliness-vitest", "PASS noise-greeting", "PASS guard-aws-key"]);
    assert.ok(lines.includes("timeliness 1/1  noise 1/1  guard 1/1"), r.stdout);
    assert.equal(lines[lines.length - 1], "3 passed, 0 failed");
  });

  it("eval reports a failing case with its reason, and --gate fails below the baseline", async () => {
    const failing = structuredClone(cases);
    failing.cases[0]!.steps[2]!.expect = { top: ["jest"], excludes: ["jest"] };
    const file = join(box.work, "cases.json");
    await writeFile(file, JSON.stringify(failing));
    const r = await cli(["eval", file]);
    assert.equal(r.code, 0, "without --gate a failing case is reported, not fatal");
    assert.match(r.stdout, /^FAIL timeliness-vitest: step 3: top: expected \["jest"\], got "Unit tests were migrated to Vitest\."/m);
    assert.match(r.stdout, /^2 passed, 1 failed$/m);

    const baseline = join(box.work, "baseline.json");
    await writeFile(baseline, JSON.stringify({ passed: 3 }));
    const gated = await cli(["eval", file, "--gate", baseline]);
    assert.equal(gated.code, 1);
    assert.match(gated.stderr, /eval gate: 2\/3 passed, below the baseline of 3/);
  });

  it("eval refuses a malformed cases file, naming the bad field", async () => {
    const bad = structuredClone(cases);
    (bad.cases[1]!.steps[0] as { at: string }).at = "yesterday";
    const file = join(box.work, "bad.json");
    await writeFile(file, JSON.stringify(bad));
    const r = await cli(["eval", file]);
    assert.notEqual(r.code, 0);
    assert.equal(r.stdout, "");
    assert.match(errors(r.stderr), /CASES_INVALID: .*cases\.1\.steps\.0\.at: must be an ISO-8601 timestamp/);

    await writeFile(file, "{ not json");
    const notJson = await cli(["eval", file]);
    assert.notEqual(notJson.code, 0);
    assert.match(errors(notJson.stderr), /CASES_INVALID: eval: cannot read .*bad\.json as JSON/);
  });

  it("bench locomo --cv scores old and new retrieval fitted and cross-validated; --stores keeps the ingest for the next run", async function () {
    this.timeout(600_000);
    const conversation = (id: string, pet: string, city: string) => ({
      sample_id: id,
      conversation: {
        speaker_a: "Ana",
        speaker_b: "Ben",
        session_1_date_time: "9:00 am on 3 March, 2023",
        session_1: [
          { speaker: "Ana", dia_id: "D1:1", text: `My cat ${pet} knocked a plant off the shelf this morning.` },
          { speaker: "Ben", dia_id: "D1:2", text: `I am flying to ${city} for a conference next week.` },
        ],
        session_2_date_time: "6:30 pm on 21 June, 2023",
        session_2: [
          { speaker: "Ana", dia_id: "D2:1", text: "I finally finished the quilt for my niece yesterday." },
          { speaker: "Ben", dia_id: "D2:2", text: `The conference in ${city} was exhausting but worth it.` },
        ],
      },
      qa: [
        { question: `What did ${pet} knock off the shelf?`, answer: "a plant", evidence: ["D1:1"], category: 4 },
        { question: "What did Ana finish in June?", answer: "a quilt", evidence: ["D2:1"], category: 2 },
        { question: `Where did Ben go for a conference?`, answer: city, evidence: ["D1:2", "D2:2"], category: 1 },
      ],
    });
    const file = join(box.work, "locomo-cv.json");
    await writeFile(file, JSON.stringify([conversation("cv-a", "Pickle", "Lisbon"), conversation("cv-b", "Mochi", "Osaka")]));
    const kept = join(box.work, "kept-stores");
    type Row = { system: string; setting: string; questions: number; overall: Record<string, number> };
    type Out = { k: number[]; systems: Row[]; choices: Record<string, Record<string, string>>; variants: Array<{ name: string; system: string }> };
    const run = async (): Promise<Out> => {
      const r = await cli(["bench", "locomo", file, "--cv", "--json", "--k", "1,5", "--stores", kept]);
      assert.equal(r.code, 0, errors(r.stderr));
      return JSON.parse(r.stdout) as Out;
    };
    const first = await run();
    assert.deepEqual(
      first.systems.map((s) => `${s.system} ${s.setting}`),
      ["old default", "old fitted", "old cross-validated", "new default", "new fitted", "new cross-validated"],
    );
    for (const row of first.systems) {
      assert.equal(row.questions, 6, `${row.system} ${row.setting} scores every question once`);
      for (const v of Object.values(row.overall)) assert.ok(v >= 0 && v <= 1);
    }
    assert.deepEqual(Object.keys(first.choices).sort(), ["new", "old"]);
    assert.deepEqual(Object.keys(first.choices.new!).sort(), ["cv-a", "cv-b"], "one choice per held-out conversation");
    assert.ok(first.variants.some((v) => v.system === "old") && first.variants.some((v) => v.system === "new"));
    const names = new Set(first.variants.map((v) => v.name));
    for (const chosen of Object.values(first.choices.new!)) assert.ok(names.has(chosen));

    // The kept stores hold the conversations: the second run asks the same questions of copies of the same memories.
    const second = await run();
    assert.deepEqual(second.systems, first.systems);
    const refused = await cli(["bench", "locomo", file, "--cv", "--config", "{}"]);
    assert.notEqual(refused.code, 0);
    assert.match(errors(refused.stderr), /INVALID_INPUT: .*--cv compares its own settings/);
  });

  it("bench locomo --json prints exactly k, questions, overall and by_category", async () => {
    const sample = {
      sample_id: "tiny-1",
      conversation: {
        speaker_a: "Caroline",
        speaker_b: "Melanie",
        session_1_date_time: "1:56 pm on 8 May, 2023",
        session_1: [
          { speaker: "Caroline", dia_id: "D1:1", text: "Hey Mel! I started pottery classes last week at the community center." },
          { speaker: "Melanie", dia_id: "D1:2", text: "That's great! I adopted a golden retriever puppy named Biscuit." },
          { speaker: "Caroline", dia_id: "D1:3", text: "I'm planning to move to Seattle for a new job in the autumn." },
        ],
        session_2_date_time: "10:00 am on 20 May, 2023",
        session_2: [
          { speaker: "Melanie", dia_id: "D2:1", text: "Biscuit chewed my running shoes yesterday." },
          { speaker: "Caroline", dia_id: "D2:2", text: "My pottery teacher showed me how to glaze a blue vase." },
          { speaker: "Melanie", dia_id: "D2:3", text: "I signed up for a half marathon in Portland in September." },
        ],
      },
      qa: [
        { question: "What classes did Caroline start?", answer: "pottery", evidence: ["D1:1"], category: 4 },
        { question: "What is the name of Melanie's puppy?", answer: "Biscuit", evidence: ["D1:2"], category: 4 },
        { question: "Where will Melanie run a half marathon?", answer: "Portland", evidence: ["D2:3"], category: 1 },
        { question: "Unscored adversarial question?", answer: "n/a", evidence: ["D1:1"], category: 5 },
      ],
    };
    const file = join(box.work, "locomo.json");
    await writeFile(file, JSON.stringify([sample]));
    const r = await cli(["bench", "locomo", file, "--json", "--k", "1,5"]);
    assert.equal(r.code, 0, errors(r.stderr));
    const out = JSON.parse(r.stdout) as { k: number[]; questions: number; overall: Record<string, number>; by_category: Record<string, Record<string, number>> };
    assert.deepEqual(Object.keys(out).sort(), ["by_category", "k", "overall", "questions"]);
    assert.deepEqual(out.k, [1, 5]);
    assert.equal(out.questions, 3);
    assert.deepEqual(Object.keys(out.overall).sort(), ["1", "5"]);
    assert.deepEqual(Object.keys(out.by_category).sort(), ["1", "4"]);
    for (const v of [...Object.values(out.overall), ...Object.values(out.by_category).flatMap((c) => Object.values(c))]) {
      assert.ok(v >= 0 && v <= 1, `recall ${v} outside [0, 1]`);
    }
    assert.ok(out.overall["5"]! >= out.overall["1"]!, "recall@5 cannot be below recall@1");
  });
});
