import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { MEMORY_TYPES, STATUSES, type MemoryRecord, type MemoryStatus, type MemoryType } from "../../core/model/memory.js";
import { shortId } from "../../core/ops/shortIds.js";
import type { WriteResult } from "../../core/write/writer.js";
import { confirm } from "../confirm.js";
import { describeForgotten, describeMemory, describeRecall, describeWrite, forgetSummary, linkedIds } from "../describe.js";
import type { CliMemory } from "../memoryApi.js";
import { print, printJson } from "../output.js";
import { SESSION_OPTIONS, withMemory } from "./engineSession.js";

const COMMON = { ...SESSION_OPTIONS, json: { type: "boolean" } } as const;

function memoryType(value: string | undefined, field: string): MemoryType | undefined {
  if (value === undefined) return undefined;
  if (!(MEMORY_TYPES as readonly string[]).includes(value)) {
    throw new HindsightError("INVALID_INPUT", `${field}: must be one of ${MEMORY_TYPES.join(", ")}`, { field });
  }
  return value as MemoryType;
}

/** The memories a write result names, fetched once so each is described by what it says. */
async function linkedMemories(memory: CliMemory, results: WriteResult[]): Promise<Map<string, MemoryRecord>> {
  const known = new Map<string, MemoryRecord>();
  for (const id of new Set(results.flatMap(linkedIds))) {
    try {
      known.set(id, await memory.get(id));
    } catch (err) {
      // The write was stored; a memory it points to that cannot be read now is named by its id alone.
      if (!HindsightError.is(err)) throw err;
    }
  }
  return known;
}

/** `hindsight remember TEXT`: stores the text as written (guarded, reconciled with what is known), no judging of conversation. */
export async function rememberCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      ...COMMON,
      type: { type: "string" },
      subject: { type: "string" },
      confidence: { type: "string" },
      "valid-until": { type: "string" },
      replaces: { type: "string", multiple: true },
    },
  });
  const content = positionals.join(" ");
  return withMemory(values, async (memory) => {
    const type = memoryType(values.type, "--type");
    const replaces = values.replaces ? await memory.resolveIds(values.replaces, "memory", "--replaces") : undefined;
    const r = await memory.write({
      content,
      type,
      subject: values.subject,
      confidence: values.confidence === undefined ? undefined : Number(values.confidence),
      validUntil: values["valid-until"],
      ...(replaces ? { replaces } : {}),
      source: "user",
    });
    if (values.json) printJson(r);
    else {
      print(describeWrite(r, await linkedMemories(memory, [r])));
      if (r.action === "added" || r.action === "superseded") print('(remember stores your text exactly as given; to have conversation text judged, use: hindsight ingest "<what was said>")');
    }
    return 0;
  });
}

/** `hindsight ingest TEXT`: one conversation turn, judged as memory_ingest judges it (extraction decides what, if anything, is kept). */
export async function ingestCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, assistant: { type: "string" }, session: { type: "string" } },
  });
  const user = positionals.join(" ");
  return withMemory(values, async (memory) => {
    const r = await memory.ingest({ user, ...(values.assistant !== undefined ? { assistant: values.assistant } : {}), ...(values.session !== undefined ? { sessionId: values.session } : {}) });
    if (values.json) {
      printJson(r);
      return 0;
    }
    const how = r.extractor === "llm" ? "the LLM" : `the rules${r.fallbackReason ? ` (LLM not used: ${r.fallbackReason})` : ""}`;
    print(`logged turn ${shortId(r.turnId)}${r.redacted ? " (secrets redacted)" : ""}; judged by ${how}`);
    if (r.results.length === 0 && r.takenBack.length === 0) print("nothing worth remembering: the turn stays in the raw log only");
    for (const b of r.takenBack) print(`taken back ${shortId(b.id)} "${b.content}": archived${b.restored.length > 0 ? `; active again: ${b.restored.map(shortId).join(", ")}` : ""}`);
    const known = await linkedMemories(memory, r.results);
    for (const w of r.results) print(describeWrite(w, known));
    return 0;
  });
}

export async function recallCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON, k: { type: "string", short: "k" }, type: { type: "string" } } });
  return withMemory(values, async (memory) => {
    const type = memoryType(values.type, "--type");
    const r = await memory.recall({ query: positionals.join(" "), k: values.k === undefined ? undefined : Number(values.k), ...(type ? { types: [type] } : {}) });
    if (values.json) printJson(r);
    else for (const line of describeRecall(r)) print(line);
    return 0;
  });
}

/**
 * `hindsight forget`: shows what would go, asks on a terminal (--yes for scripts), then forgets
 * exactly by the same criteria and lists what went.
 */
export async function forgetCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, id: { type: "string", multiple: true }, match: { type: "string", multiple: true }, yes: { type: "boolean", short: "y" } },
  });
  const query = positionals.join(" ").trim();
  if (!values.id && !values.match && !query) throw new HindsightError("INVALID_INPUT", "forget: give what to forget: a QUERY, --id ID or --match WORD", { field: "QUERY" });
  return withMemory(values, async (memory) => {
    const ids = values.id ? await memory.resolveIds(values.id, "memory", "--id") : undefined;
    const criteria = { ...(ids ? { ids } : {}), ...(values.match ? { match: values.match } : {}), ...(query ? { query } : {}) };
    const preview = await memory.forget({ ...criteria, dryRun: true });
    if (preview.forgotten === 0 && preview.turns === 0) {
      if (values.json) printJson(preview);
      else print("nothing matches: nothing forgotten");
      return 0;
    }
    if (!values.yes && process.stdin.isTTY) {
      process.stderr.write(`This forgets ${forgetSummary(preview)} for good:\n`);
      for (const m of preview.memories) process.stderr.write(`  ${describeForgotten(m)}\n`);
    }
    if (!(await confirm("Forget them?", { yes: values.yes ?? false, what: `forget would remove ${forgetSummary(preview)}` }))) {
      process.stderr.write("hindsight: nothing forgotten\n");
      return 1;
    }
    const r = await memory.forget(criteria);
    if (values.json) printJson(r);
    else {
      for (const m of r.memories) print(`forgot ${describeForgotten(m)}`);
      print(`forgot ${forgetSummary(r)}`);
    }
    return 0;
  });
}

/** `--status active,superseded` or `--status all`: which statuses list shows (default active). */
function statuses(value: string | undefined): MemoryStatus[] | "all" | undefined {
  if (value === undefined) return undefined;
  const wanted = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (wanted.includes("all")) return "all";
  const bad = wanted.find((s) => !(STATUSES as readonly string[]).includes(s));
  if (bad !== undefined || wanted.length === 0) {
    throw new HindsightError("INVALID_INPUT", `--status: "${bad ?? value}" is not one of all, ${STATUSES.join(", ")} (comma-separated)`, { field: "--status" });
  }
  return wanted as MemoryStatus[];
}

export async function listCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...COMMON, type: { type: "string" }, status: { type: "string" }, all: { type: "boolean" } } });
  return withMemory(values, async (memory) => {
    const type = memoryType(values.type, "--type");
    const status = values.all ? "all" : statuses(values.status);
    const memories = await memory.list({
      ...(type ? { types: [type] } : {}),
      ...(status === "all" ? { statuses: [...STATUSES] } : status ? { statuses: status } : {}),
      includeExpired: status === "all",
    });
    if (values.json) printJson(memories);
    else {
      const now = Date.now();
      for (const m of memories) print(describeMemory(m, now));
      print(`${memories.length} memories`);
    }
    return 0;
  });
}
