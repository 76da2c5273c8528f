/**
 * Where a benchmark's recall time goes: the time spent in named calls of the store, the embedder
 * and the reranker while recall runs (not while ingesting), per recall. Parts run in parallel inside
 * one recall (vector and full-text search), so they may add up to more than the recall took.
 */
export class RecallProfile {
  private readonly ms = new Map<string, number>();
  private readonly calls = new Map<string, number>();
  private recalls = 0;
  private on = false;
  /** Objects already watched: an embedder shared by every conversation is timed once, not once per conversation. */
  private readonly watched = new WeakSet<object>();

  /** Times `methods` of `target` from now on, under "label.method"; only while a recall is measured. */
  watch<T extends object>(label: string, target: T, methods: ReadonlyArray<keyof T & string>): void {
    if (this.watched.has(target)) return;
    this.watched.add(target);
    for (const name of methods) {
      const original = target[name];
      if (typeof original !== "function") continue;
      const call = original as (...args: unknown[]) => Promise<unknown>;
      const key = `${label}.${name}`;
      // Bench-only instrumentation of one instance: the engine sees the same object and the same methods.
      Object.defineProperty(target, name, {
        configurable: true,
        value: async (...args: unknown[]): Promise<unknown> => {
          if (!this.on) return call.apply(target, args);
          const t = performance.now();
          try {
            return await call.apply(target, args);
          } finally {
            this.ms.set(key, (this.ms.get(key) ?? 0) + performance.now() - t);
            this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
          }
        },
      });
    }
  }

  async measure<R>(fn: () => Promise<R>): Promise<R> {
    this.on = true;
    this.recalls++;
    try {
      return await fn();
    } finally {
      this.on = false;
    }
  }

  /** Mean milliseconds and calls per recall, the costliest part first. */
  report(): Array<{ part: string; msPerRecall: number; callsPerRecall: number }> {
    const n = Math.max(1, this.recalls);
    return [...this.ms.entries()]
      .map(([part, ms]) => ({ part, msPerRecall: Math.round((ms / n) * 100) / 100, callsPerRecall: Math.round(((this.calls.get(part) ?? 0) / n) * 100) / 100 }))
      .sort((a, b) => b.msPerRecall - a.msPerRecall);
  }
}
