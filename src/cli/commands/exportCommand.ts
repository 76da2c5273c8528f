import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { print, printJson } from "../output.js";
import { SESSION_OPTIONS, withMemory } from "./engineSession.js";

/** `hindsight export [--out FILE]`: every memory (no vectors) and L0 turn of the scope as JSONL, to stdout or a file. */
export async function exportCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...SESSION_OPTIONS, out: { type: "string" } } });
  return withMemory(values, async (memory) => {
    const text = await memory.exportJsonl();
    if (values.out) {
      await writeFile(values.out, text, "utf8");
      process.stderr.write(`hindsight: exported ${text.split("\n").filter((l) => l !== "").length - 1} records to ${values.out}\n`);
    } else process.stdout.write(text);
    return 0;
  });
}

/**
 * `hindsight import FILE [--scope S]`: loads a JSONL export (ids kept, existing ids skipped, every memory re-embedded
 * with this store's model). Progress ("imported N/M") goes to stderr every 100 records.
 * With --scope every record moves into that scope. Bad lines are listed with their line numbers; exit 1 when there were any.
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
      print(`imported ${r.memories} memories and ${r.turns} turns${other}; skipped ${r.skipped.length} existing ids; ${r.errors.length} bad lines`);
      for (const e of r.errors) process.stderr.write(`hindsight: ${e.code}: ${e.message}\n`);
    }
    return r.errors.length > 0 ? 1 : 0;
  });
}
