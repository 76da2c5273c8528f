import type { EngineContext } from "../context.js";
import { taskLifetimeMs } from "../model/lastKnown.js";

/**
 * Task state used to carry its week in working memory as valid_until, so a store written then hides a
 * task's last known state from listings once the week is over although recall still answers with it
 * ("the scan reached 4,800 of 5,000", gone from the sidebar a week later). Now that working memory is
 * read from a state's age, those lifetimes are released when the engine opens, once: a bound someone
 * gave ("until Friday", a caller's valid_until) differs from created_at + the lifetime and stays.
 */
export async function releaseTaskLifetimes(ctx: Pick<EngineContext, "store" | "config">): Promise<number> {
  // A store that cannot be written keeps them as they are: recall still reads them as the last known state.
  if (ctx.store.readOnly) return 0;
  const lifetimeMs = taskLifetimeMs(ctx.config);
  const tasks = await ctx.store.listMemories({ statuses: ["active"], types: ["task_state"] });
  const lapsing = tasks.filter((m) => m.validUntil !== null && m.validUntil === m.createdAt + lifetimeMs);
  if (lapsing.length > 0) await ctx.store.updateMemories(lapsing.map((m) => ({ ...m, validUntil: null })));
  return lapsing.length;
}
