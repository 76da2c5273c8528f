import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { MEMORY_TYPES, type MemoryType } from "../../core/model/memory.js";
import type { EditPatch } from "../../core/ops/edit.js";
import { shortId } from "../../core/ops/shortIds.js";
import { describeDetail } from "../describe.js";
import { print, printJson } from "../output.js";
import { SESSION_OPTIONS, withMemory } from "./engineSession.js";

const COMMON = { ...SESSION_OPTIONS, json: { type: "boolean" } } as const;

function oneId(positionals: string[], command: string): string {
  const [id, ...rest] = positionals;
  if (!id || rest.length > 0) throw new HindsightError("INVALID_INPUT", `${command}: give exactly one memory id (or its first characters)`, { field: "ID" });
  return id;
}

/** `hindsight show ID`: a memory, why it is in the state it is, what it links to and the turns it came from. */
export async function showCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: COMMON });
  const input = oneId(positionals, "show");
  return withMemory(values, async (memory) => {
    const [id] = await memory.resolveIds([input], "memory", "ID");
    const e = await memory.explain(id as string);
    if (values.json) printJson(e);
    else for (const line of describeDetail(e, Date.now())) print(line);
    return 0;
  });
}

/** `hindsight edit ID --content T | --type T | --confidence C | --valid-until ISO|none | --pin | --unpin` */
export async function editCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, content: { type: "string" }, type: { type: "string" }, confidence: { type: "string" }, "valid-until": { type: "string" }, pin: { type: "boolean" }, unpin: { type: "boolean" } },
  });
  const input = oneId(positionals, "edit");
  if (values.type !== undefined && !(MEMORY_TYPES as readonly string[]).includes(values.type)) {
    throw new HindsightError("INVALID_INPUT", `--type: must be one of ${MEMORY_TYPES.join(", ")}`, { field: "--type" });
  }
  if (values.pin && values.unpin) throw new HindsightError("INVALID_INPUT", "--pin: give --pin or --unpin, not both", { field: "--pin" });
  const until = values["valid-until"];
  const patch: EditPatch = {
    ...(values.content !== undefined ? { content: values.content } : {}),
    ...(values.type !== undefined ? { type: values.type as MemoryType } : {}),
    ...(values.confidence !== undefined ? { confidence: Number(values.confidence) } : {}),
    ...(until !== undefined ? { validUntil: until === "none" ? null : until } : {}),
    ...(values.pin || values.unpin ? { pinned: values.pin === true } : {}),
  };
  if (Object.keys(patch).length === 0) throw new HindsightError("INVALID_INPUT", "edit: give what to change: --content, --type, --confidence, --valid-until, --pin or --unpin", { field: "--content" });
  return withMemory(values, async (memory) => {
    const [id] = await memory.resolveIds([input], "memory", "ID");
    const r = await memory.edit(id as string, patch);
    if (values.json) printJson(r);
    else {
      const m = r.memory;
      const changed = r.changed.length > 0 ? `changed ${r.changed.join(", ")}` : "nothing changed";
      print(`edited ${shortId(m.id)} (${changed}): "${m.content}" (${m.layer} ${m.type}, confidence ${m.confidence.toFixed(2)}${m.pinned ? ", pinned" : ""})${r.flagged ? `; quarantined: ${r.reason}` : ""}`);
    }
    return 0;
  });
}
