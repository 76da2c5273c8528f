import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { MEMORY_TYPES, type MemoryType } from "../../core/model/memory.js";
import { SESSION_OPTIONS, withMemory } from "./engineSession.js";
import { describeMemory, print, printJson } from "../output.js";

const COMMON = { ...SESSION_OPTIONS, json: { type: "boolean" } } as const;

function memoryType(value: string | undefined, field: string): MemoryType | undefined {
  if (value === undefined) return undefined;
  if (!(MEMORY_TYPES as readonly string[]).includes(value)) {
    throw new HindsightError("INVALID_INPUT", `${field}: must be one of ${MEMORY_TYPES.join(", ")}`, { field });
  }
  return value as MemoryType;
}

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
    const r = await memory.write({
      content,
      type: memoryType(values.type, "--type"),
      subject: values.subject,
      confidence: values.confidence === undefined ? undefined : Number(values.confidence),
      validUntil: values["valid-until"],
      ...(values.replaces ? { replaces: values.replaces } : {}),
      source: "user",
    });
    if (values.json) printJson(r);
    else print(`${r.action}${r.id ? ` ${r.id}` : ""}: ${r.reason}${r.supersedes.length > 0 ? ` (supersedes ${r.supersedes.join(", ")}; decided by the ${r.decidedBy})` : ""}`);
    return 0;
  });
}

export async function recallCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON, k: { type: "string", short: "k" }, type: { type: "string" } } });
  return withMemory(values, async (memory) => {
    const type = memoryType(values.type, "--type");
    const r = await memory.recall({ query: positionals.join(" "), k: values.k === undefined ? undefined : Number(values.k), ...(type ? { types: [type] } : {}) });
    if (values.json) printJson(r);
    else print(r.text);
    return 0;
  });
}

export async function forgetCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, id: { type: "string", multiple: true }, match: { type: "string", multiple: true } },
  });
  return withMemory(values, async (memory) => {
    const query = positionals.join(" ").trim();
    const r = await memory.forget({
      ...(values.id ? { ids: values.id } : {}),
      ...(values.match ? { match: values.match } : {}),
      ...(query ? { query } : {}),
    });
    if (values.json) printJson(r);
    else print(`forgot ${r.forgotten} memories and ${r.turns} raw turns`);
    return 0;
  });
}

export async function listCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...COMMON, type: { type: "string" }, all: { type: "boolean" } } });
  return withMemory(values, async (memory) => {
    const type = memoryType(values.type, "--type");
    const memories = await memory.list({
      ...(type ? { types: [type] } : {}),
      ...(values.all ? { statuses: ["active", "superseded", "archived", "quarantined"] } : {}),
      includeExpired: values.all ?? false,
    });
    if (values.json) printJson(memories);
    else {
      for (const m of memories) print(describeMemory(m));
      print(`${memories.length} memories`);
    }
    return 0;
  });
}
