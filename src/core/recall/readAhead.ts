import type { EngineContext } from "../context.js";
import { ALL_SCOPES } from "../ports.js";

/** Memories of a scope read ahead after each change there: more than one write batch adds. */
const NEWEST_AFTER_A_CHANGE = 32;
/** Memories read ahead for a whole store: as many as the second opinion keeps (its passage cache). */
const NEWEST_OF_A_STORE = 20_000;

/**
 * The second opinion (Reranker.readAhead) reads the newest active memories of `scope` (ALL_SCOPES:
 * of every scope) before a recall asks about them, so that recall embeds only its query. Newest,
 * because a write adds memories created now and a long-running owner has read the older ones.
 * Resolves when they are read; a failure only leaves them to be read when asked about.
 */
export async function readAhead(ctx: EngineContext, scope: string, limit: number = NEWEST_AFTER_A_CHANGE): Promise<void> {
  const reranker = ctx.reranker;
  if (!reranker?.readAhead) return;
  try {
    const newest = await ctx.store.listMemories(scope === ALL_SCOPES ? { statuses: ["active"] } : { scope, statuses: ["active"] }, { limit });
    await reranker.readAhead(newest.map((m) => m.content));
  } catch (err) {
    ctx.logger.debug("could not read memories ahead for the second opinion", { scope, error: String(err) });
  }
}

export function readAheadStore(ctx: EngineContext): Promise<void> {
  return readAhead(ctx, ALL_SCOPES, NEWEST_OF_A_STORE);
}
