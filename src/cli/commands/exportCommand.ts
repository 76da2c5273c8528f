import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { print, printJson } from "../output.js";
import { SESSION_OPTIONS, withMemory } from "./engineSession.js";

/**
 * `hindsight export [--out FILE] [--json]`: every memory (no vectors) and L0 turn of the scope as JSONL, to stdout or a
 * file. The JSONL is JSON already; --json with --out prints what was written instead of a sentence on stderr.
 */
export async function exportCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...SESSION_OPTIONS, out: { type: "string" }, json: { type: "boolean" } } });
  return withMemory(values, async (memory) => {
    const text = await memory.exportJsonl();
    if (values.out) {
      await writeFile(values.out, text, "utf8");
      const lines = text.split("\n").filter((l) => l !== "");
      const memories = lines.filter((l) => l.startsWith('{"kind":"memory"')).length;
      if (values.json) printJson({ file: values.out, memories, turns: lines.length - 1 - memories });
      else process.stderr.write(`hindsight: exported ${lines.length - 1} records to ${values.out}\n`);
    } else process.stdout.write(text);
    return 0;
  });
}

/**
 * `hindsight import FILE [--scope S]`: loads a JSONL export (ids kept, existing ids skipped, every memory re-embedded
 * with this store's model). Progress ("imported N/M") goes to stderr every 100 records.
 * With --scope every record moves into that scope; records exported from another scope are copies with new ids
 * (their links follow), so a project can be copied within one store. Bad lines are listed with their line numbers;
 * exit 1 when there were any.
 */
export async function importCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...SESSION_OPTIONS, json: { type: "boolean" } },
  });
  const file = positionals[0];
  if (!file) throw new HindsightError("INVALID_INPUT", "import: give the JSONL file to import", { field: "FILE" });
  const text = await readFile(file, "utf8");
  return withMemory(values, async (memory) => {
    const r = await memory.importJsonl(text, values.scope, (done, total) => {
      if (total > 0) process.stderr.write(`hindsight: imported ${done}/${total}\n`);
    });
    if (values.json) printJson(r);
    else {
      const other = r.reembedded > 0 ? ` (${r.reembedded} memories re-embedded from another embedding model to the store's)` : "";
      const into = values.scope ? ` into ${values.scope}` : "";
      const copied = r.copied > 0 ? ` as new ids (copied from ${r.copiedFrom.join(", ")}, links between them kept)` : "";
      print(`imported ${r.memories} memories and ${r.turns} turns${into}${copied}${other}; skipped ${r.skipped.length} existing ids; ${r.errors.length} bad lines`);
      for (const e of r.errors) process.stderr.write(`hindsight: ${e.code}: ${e.message}\n`);
    }
    return r.errors.length > 0 ? 1 : 0;
  });
}
