import type { MemoryRecord } from "../model/memory.js";
import type { LlmClient } from "../ports.js";

/** What the LLM says a new statement does to the closest memories it was shown. */
export type LlmVerdict =
  | { action: "add" }
  | { action: "update"; targets: MemoryRecord[] }
  | { action: "keep"; target: MemoryRecord };

export type LlmJudgement = { ok: true; verdict: LlmVerdict } | { ok: false; reason: string };

const SYSTEM = [
  "You keep the long-term memory of an assistant. A new statement arrives; you see the closest memories already stored, each with a label.",
  'Answer with JSON only: {"action": "add" | "update" | "keep", "labels": [...]}.',
  '"update": the new statement gives a different value for the same attribute of the same thing as the labelled memories, so they are now outdated (a changed setting, a moved service, the newer status of a task).',
  '"keep": it says nothing beyond one labelled memory (a restatement); give that one label.',
  '"add": anything else — another attribute of the same thing, an addition ("also", "as well", "另外", "也"), a different thing, an event.',
  'When unsure, answer "add": losing a fact is worse than keeping two.',
].join(" ");

export const DECISION_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    action: { type: "string", enum: ["add", "update", "keep"] },
    labels: { type: "array", items: { type: "string" }, maxItems: 8 },
  },
  required: ["action", "labels"],
  additionalProperties: false,
};

function day(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * Asks the LLM to add, update or keep a new statement against the closest memories of its scope:
 * one call, bounded by timeoutMs. Labels (m1, m2 …) stand for ids, so a model cannot name a memory
 * it was not shown. Any error, timeout or unreadable answer is reported, and the rules decide.
 */
export async function llmDecide(llm: LlmClient, candidate: string, closest: MemoryRecord[], timeoutMs: number): Promise<LlmJudgement> {
  const labelled = closest.map((m, i) => ({ label: `m${i + 1}`, memory: m }));
  const user = [
    `New statement: ${candidate}`,
    "Stored memories:",
    ...labelled.map(({ label, memory }) => `${label} (${memory.type}, stated ${day(memory.confirmedAt)}): ${memory.content}`),
  ].join("\n");
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  try {
    const answer = await Promise.race([llm.complete({ system: SYSTEM, user, jsonSchema: DECISION_SCHEMA, timeoutMs }), late]);
    if (answer === "late") return { ok: false, reason: `${llm.id} did not answer within ${timeoutMs} ms` };
    return parseDecision(answer, labelled);
  } catch (err) {
    return { ok: false, reason: `${llm.id} failed: ${(err as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

function parseDecision(answer: string, labelled: Array<{ label: string; memory: MemoryRecord }>): LlmJudgement {
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.slice(answer.indexOf("{"), answer.lastIndexOf("}") + 1));
  } catch {
    return { ok: false, reason: "the answer was not JSON" };
  }
  const { action, labels } = (parsed ?? {}) as { action?: unknown; labels?: unknown };
  if (action !== "add" && action !== "update" && action !== "keep") return { ok: false, reason: `action: expected add, update or keep, got ${JSON.stringify(action)}` };
  if (action === "add") return { ok: true, verdict: { action } };
  const names = Array.isArray(labels) ? labels.filter((l): l is string => typeof l === "string") : [];
  const unknown = names.filter((n) => !labelled.some((l) => l.label === n));
  if (unknown.length > 0) return { ok: false, reason: `labels: ${unknown.join(", ")} name no memory that was shown` };
  const targets = labelled.filter((l) => names.includes(l.label)).map((l) => l.memory);
  if (targets.length === 0) return { ok: false, reason: `labels: ${action} needs the memories it applies to` };
  if (action === "keep") return targets.length === 1 ? { ok: true, verdict: { action, target: targets[0]! } } : { ok: false, reason: "labels: keep names exactly one memory" };
  return { ok: true, verdict: { action, targets } };
}
