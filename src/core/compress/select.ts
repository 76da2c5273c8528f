import type { EngineContext } from "../context.js";
import type { SummarizeParams } from "../model/inputs.js";
import type { MemoryRecord } from "../model/memory.js";
import type { AccessTracker } from "../recall/access.js";
import { recallMemories } from "../recall/recall.js";

/** The active memories a summary covers: relevant to a topic, or of a subject/type, within since..until. */
export async function selectForSummary(ctx: EngineContext, p: SummarizeParams, scope: string, access: AccessTracker): Promise<MemoryRecord[]> {
  const now = ctx.clock.now();
  let memories: MemoryRecord[];
  if (p.topic) {
    const r = await recallMemories(ctx, { query: p.topic, k: 50, fallback: false, ...(p.type ? { types: [p.type] } : {}) }, scope, access);
    memories = await ctx.store.getMemories(r.memories.map((m) => m.id));
  } else {
    memories = await ctx.store.listMemories({ scope, statuses: ["active"], validAt: now, ...(p.type ? { types: [p.type] } : {}) });
  }
  const subject = p.subject?.toLowerCase();
  return memories.filter(
    (m) =>
      m.layer !== "L1" &&
      (subject === undefined || m.subject.toLowerCase() === subject) &&
      (p.since === undefined || m.confirmedAt >= p.since) &&
      (p.until === undefined || m.confirmedAt <= p.until),
  );
}
