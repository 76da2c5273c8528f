import type { ListInput } from "../model/inputs.js";
import type { MemoryRecord } from "../model/memory.js";

/** Memory lines at most (the header and section titles come on top: about 20 lines in all). */
export const PROFILE_MAX_ITEMS = 15;
export const PROFILE_MIN_CONFIDENCE = 0.8;

/** What the profile reads: the engine, or a view of it that checks access. */
export interface ProfileSource {
  list(input: ListInput): Promise<MemoryRecord[]>;
}

function profileWorthy(m: MemoryRecord): boolean {
  if (m.status !== "active") return false;
  if (m.pinned) return true;
  return (m.type === "constraint" || m.type === "preference") && m.confidence >= PROFILE_MIN_CONFIDENCE;
}

function line(m: MemoryRecord): string {
  return `- ${m.content.replace(/\s+/g, " ").trim()} (${m.type}, confidence ${m.confidence.toFixed(2)})`;
}

/**
 * A short markdown profile of a scope: pinned memories, then high-confidence constraints and
 * preferences. Only active, currently valid memories (never quarantined, superseded or archived).
 * Served as the MCP resource memory://profile/{scope}, REST GET /profile and the editor's instructions file.
 */
export async function buildProfile(engine: ProfileSource, scope: string): Promise<string> {
  const all = await engine.list({ scope, statuses: ["active"], layers: ["L2", "L3"] });
  const chosen = all
    .filter(profileWorthy)
    .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.confidence - a.confidence || b.confirmedAt - a.confirmedAt)
    .slice(0, PROFILE_MAX_ITEMS);
  const sections: Array<[string, MemoryRecord[]]> = [
    ["Pinned", chosen.filter((m) => m.pinned)],
    ["Constraints", chosen.filter((m) => !m.pinned && m.type === "constraint")],
    ["Preferences", chosen.filter((m) => !m.pinned && m.type === "preference")],
  ];
  const out = [`# Memory profile: ${scope}`];
  for (const [title, items] of sections) {
    if (items.length === 0) continue;
    out.push(`## ${title}`, ...items.map(line));
  }
  if (out.length === 1) out.push("No pinned memories or high-confidence constraints and preferences yet.");
  return `${out.join("\n")}\n`;
}
