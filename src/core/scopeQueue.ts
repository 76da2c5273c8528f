import { ALL_SCOPES, type MemoryStore, type ScopeLeases } from "./ports.js";
import { StagedWrites } from "./write/stagedWrites.js";
import type { ScopeChange } from "./recall/reach.js";

/** One write's decision, made against the batch's view of the scope (StagedWrites). */
export type Decision<R> = (batch: StagedWrites) => Promise<R>;

/** Writes of one scope that arrived while that scope was busy: decided together, committed together. */
interface Lane {
  items: Array<{ preparing: Promise<Decision<unknown>>; resolve: (value: unknown) => void; reject: (err: unknown) => void }>;
  started: boolean;
}

/** Writes per batch at most: enough to make a commit per batch cheap, few enough that a batch's callers wait little. */
export const MAX_BATCH = 64;

/** What a queued mutation decides for: one scope, or every scope (a task whose records' scopes are known only inside it). */
export type QueueKey = { scope: string } | "all";

/**
 * Mutations of one scope run one at a time, in call order; mutations of different scopes run side
 * by side, so a slow write of one project (an LLM judging a contradiction) does not hold up
 * another's. A task for every scope waits for everything queued before it and holds every scope
 * until it ends. A failed task does not stop those queued after it.
 *
 * Only decide-and-commit steps belong here: dedup, supersede and conflict decisions read the
 * scope's memories and must see every earlier decision of that scope. Extraction and embedding run
 * before the task is queued.
 */
export class ScopeQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private everything: Promise<void> = Promise.resolve();

  private readonly lanes = new Map<string, Lane>();

  /**
   * `leases`: the same order across processes sharing the store (team replicas); absent, this process
   * is the only one deciding. `changed`: told of every deciding task's scope once it ended, before its
   * caller hears back (a recall cache must not answer the caller from before its own write).
   */
  constructor(
    private readonly leases: ScopeLeases | null = null,
    private readonly changed: ((scope: string, change: ScopeChange | null) => Promise<void>) | null = null,
  ) {}

  /**
   * `task` gets the fence of its lease (see ScopeLeases.hold); without leases it always passes.
   * `decides: false`: a task that only reads in order (an export) takes its turn here but no lease,
   * so it is served while the replicas cannot coordinate.
   */
  run<T>(key: QueueKey, task: (fence: () => Promise<void>) => Promise<T>, decides = true, describe?: (done: T) => ScopeChange | null): Promise<T> {
    // A task queued now comes after every write already waiting: later writes start a new batch behind it.
    if (key === "all") this.lanes.clear();
    else this.lanes.delete(key.scope);
    const before = key === "all" ? [this.everything, ...this.tails.values()] : [this.everything, this.tails.get(key.scope) ?? this.everything];
    const leases = this.leases;
    const name = key === "all" ? ALL_SCOPES : key.scope;
    const held = leases && decides ? () => leases.hold(name, task) : () => task(unfenced);
    const changed = this.changed;
    // A failed task may have stored part of its work (a batch's audit, an import's first chunks): told all the same, as an unknown change.
    const told =
      changed && decides
        ? () =>
            held().then(
              (done) => changed(name, describe ? describe(done) : null).then(() => done, () => done),
              (err: unknown) => changed(name, null).then(() => Promise.reject(err), () => Promise.reject(err)),
            )
        : held;
    const next = Promise.all(before).then(told);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    if (key === "all") {
      this.everything = settled;
      // Every later task waits for this one through `everything`; the scopes' tails are behind it.
      this.tails.clear();
    } else {
      this.tails.set(key.scope, settled);
      // An idle scope leaves no entry behind (a team server sees many projects).
      void settled.then(() => {
        if (this.tails.get(key.scope) === settled) this.tails.delete(key.scope);
      });
    }
    return next;
  }

  /**
   * A write decided in the scope's queue, batched with the scope's other writes that are waiting
   * when its turn comes: their decisions run one by one, in call order, each seeing the ones before
   * it (StagedWrites), and the batch is stored in one commit per table. The preparation (extraction,
   * guard, embedding) runs at once, side by side with the scope's earlier work. A write whose
   * preparation or decision fails fails alone; a failed commit fails the batch's writes, none of
   * which was reported stored.
   */
  inBatches<R>(scope: string, preparing: Promise<Decision<R>>, store: MemoryStore, onAuditError: (err: unknown) => void): Promise<R> {
    // Awaited in its turn; until then a failed preparation must not count as an unhandled rejection.
    preparing.catch(() => undefined);
    return new Promise<R>((resolve, reject) => {
      let lane = this.lanes.get(scope);
      if (!lane || lane.started || lane.items.length >= MAX_BATCH) {
        const fresh: Lane = { items: [], started: false };
        // The writes hear back once the task has ended and the recall cache was told (run's `changed`), not from
        // inside it: a caller that asked again at once could otherwise be answered from before its own write.
        this.run({ scope }, (fence) => decideBatch(fresh, store, onAuditError, fence), true, (done) => done.change).then(({ tell }) => tell(), (err: unknown) => {
          // The batch never ran (its lease could not be had): each of its writes is told, none waits forever.
          fresh.started = true;
          if (this.lanes.get(scope) === fresh) this.lanes.delete(scope);
          for (const item of fresh.items) item.reject(err);
        });
        this.lanes.set(scope, fresh);
        lane = fresh;
      }
      lane.items.push({ preparing: preparing as Promise<Decision<unknown>>, resolve: resolve as (value: unknown) => void, reject });
    });
  }

  /** Resolves when everything queued so far has finished. */
  async idle(): Promise<void> {
    await Promise.all([this.everything, ...this.tails.values()]);
  }

  /** Scopes with queued or running work (for tests and metrics). */
  busyScopes(): number {
    return this.tails.size;
  }
}

const unfenced = (): Promise<void> => Promise.resolve();

/** Decides and commits a lane's writes; what it returns tells the stored ones their results (called once the scope's task has ended). */
async function decideBatch(
  lane: Lane,
  store: MemoryStore,
  onAuditError: (err: unknown) => void,
  fence: () => Promise<void>,
): Promise<{ tell: () => void; change: ScopeChange | null }> {
  lane.started = true;
  const batch = new StagedWrites(store);
  const decided: Array<{ resolve: (value: unknown) => void; reject: (err: unknown) => void; value: unknown }> = [];
  for (const item of lane.items) {
    const mark = batch.mark();
    try {
      const decide = await item.preparing;
      decided.push({ ...item, value: await decide(batch) });
    } catch (err) {
      batch.rollback(mark);
      item.reject(err);
    }
  }
  const none = (): void => undefined;
  if (decided.length === 0) return { tell: none, change: { memories: [] } };
  try {
    // Decided under the lease; committed only if it is still ours (else nothing is stored and each write is told so).
    await fence();
    await batch.commit(onAuditError);
  } catch (err) {
    for (const d of decided) d.reject(err);
    // A commit that failed halfway may have stored some of it: not described.
    return { tell: none, change: null };
  }
  const tell = (): void => {
    for (const d of decided) d.resolve(d.value);
  };
  return { tell, change: batch.described() };
}
