import type { MemoryRecord } from "./memory.js";

/** How long task state stays working memory (`write.taskStateTtlHours`), in ms. */
export function taskLifetimeMs(config: { write: { taskStateTtlHours: number } }): number {
  return config.write.taskStateTtlHours * 3_600_000;
}

/**
 * Whether a memory still answers a recall or a write's comparison at `now`: it is valid, or it is a
 * task's last known state. Task state leaves working memory (the session's first places) when its
 * lifetime (`write.taskStateTtlHours`) ends, but what a task last stood at stays listed and stays the
 * answer to "where are we with X?" until a newer state of the task replaces it: "the scan reached 4,800
 * of 5,000" asked seven weeks later. New task state carries no valid_until for that lifetime; a record
 * written before (or imported from such a store) carries created_at + the lifetime, read here as the
 * same thing. A bound the statement or the caller gave ("until Friday", valid_until) expires for real.
 */
export function stillHeld(m: Pick<MemoryRecord, "type" | "validUntil" | "createdAt">, now: number, taskStateTtlMs: number): boolean {
  if (m.validUntil === null || m.validUntil > now) return true;
  return m.type === "task_state" && m.validUntil === m.createdAt + taskStateTtlMs;
}
