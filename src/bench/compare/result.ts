import { z } from "zod";
import { parseInput } from "../../core/validate.js";
import type { LatencyRow } from "./latencyCompare.js";
import type { LocomoSystemResult } from "./locomoCompare.js";
import type { MachineInfo } from "./machine.js";
import type { SuiteResult } from "./regressionCompare.js";
import type { LatencySystemId, SystemId } from "./systems.js";

export interface TargetCheck {
  id: string;
  target: string;
  measured: string;
  /** null: not measured in this run (a workload or system was left out). */
  met: boolean | null;
}

/** What `hindsight bench compare --json` prints and `--report` renders. */
export interface CompareResult {
  generated_at: string;
  command: string;
  machine: MachineInfo;
  systems: Array<{ id: LatencySystemId; label: string; description: string }>;
  locomo: null | {
    file: string;
    conversations: number;
    k: number[];
    results: Partial<Record<SystemId, LocomoSystemResult>>;
  };
  regression: null | Array<{ file: string; cases: number; results: Partial<Record<SystemId, SuiteResult>> }>;
  latency: null | { queries: number; writes: number; k: number; sizes: number[]; hindsight_sizes: number[]; rows: LatencyRow[] };
  targets: TargetCheck[];
  duration_s: number;
  /** The embedding model of the hindsight rows (absent in runs saved before it was recorded). */
  embedding_model?: string;
}

/**
 * The top level of a saved --json document, checked before it is rendered again (`--from`); the
 * workloads inside are the command's own output and are trusted as written.
 */
export const SavedResultSchema = z
  .object({
    generated_at: z.string(),
    command: z.string(),
    machine: z.object({ cpus: z.number(), cpu_model: z.string(), memory_gb: z.number(), node: z.string(), os: z.string(), note: z.string().nullable() }),
    systems: z.array(z.object({ id: z.string(), label: z.string(), description: z.string() })),
    locomo: z.object({ file: z.string(), conversations: z.number(), k: z.array(z.number()), results: z.record(z.string(), z.unknown()) }).nullable(),
    regression: z.array(z.object({ file: z.string(), cases: z.number(), results: z.record(z.string(), z.unknown()) })).nullable(),
    latency: z.object({ rows: z.array(z.unknown()) }).passthrough().nullable(),
    duration_s: z.number(),
  })
  .passthrough();

/** A saved result with its targets judged again by the current rules. */
export function parseSavedResult(json: unknown, check: (r: Omit<CompareResult, "targets">) => TargetCheck[]): CompareResult {
  parseInput(SavedResultSchema, json, "results file");
  // The document as written (zod's copy would reorder keys), with its targets replaced in place.
  const saved = json as Omit<CompareResult, "targets">;
  return { ...saved, targets: check(saved) };
}
