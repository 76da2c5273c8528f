import type { MemoryStore, RecallHour, RecallStatsRecord } from "../ports.js";

const HOUR = 3_600_000;
/** Durations behind the p50 / p95 "now". */
const RECENT = 1024;
/** Durations the current hour keeps for its own p50 / p95 (its last ones). */
const PER_HOUR = 256;
/** Hours with recalls kept for the history. */
const HOURS_KEPT = 240;
/** Recalls between two writes to the store, or... */
const SAVE_EVERY = 16;
/** ...this long after the first unsaved one: a killed owner loses at most a few. */
const SAVE_AFTER_MS = 60_000;

/** One hour of the history as reported: its durations stay inside. */
export type RecallHourSummary = Omit<RecallHour, "durations">;

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Nearest-rank quantile; null for no samples. */
export function quantile(samples: readonly number[], q: number): number | null {
  if (samples.length === 0) return null;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1] ?? null;
}

function fresh(now: number): RecallStatsRecord {
  return { since: now, count: 0, hits: 0, sumMs: 0, recent: [], hours: [] };
}

const isNumberArray = (v: unknown): v is number[] => Array.isArray(v) && v.every((x) => typeof x === "number");

/** A stored document written by another version, or damaged, starts the statistics again rather than failing. */
function valid(doc: unknown): doc is RecallStatsRecord {
  if (typeof doc !== "object" || doc === null) return false;
  const d = doc as Partial<RecallStatsRecord>;
  return (
    typeof d.since === "number" &&
    typeof d.count === "number" &&
    typeof d.hits === "number" &&
    typeof d.sumMs === "number" &&
    isNumberArray(d.recent) &&
    Array.isArray(d.hours) &&
    d.hours.every((h) => typeof h?.at === "number" && typeof h.count === "number" && typeof h.hits === "number")
  );
}

/**
 * The recall count, hit rate and latency of the store's owner, by hour. They belong to the store,
 * not to the process: loaded when the engine opens and written back every few recalls and on close,
 * so a restarted owner continues the history, and its clients (the sidebar, team members) all read
 * the same one. Counts every scope, as the engine serves them.
 */
export class RecallStats {
  private doc: RecallStatsRecord;
  private unsaved = 0;
  private firstUnsavedAt = 0;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: MemoryStore,
    private readonly onError: (err: unknown) => void,
    now: number,
  ) {
    this.doc = fresh(now);
  }

  /** Reads what the store kept (nothing kept, or unreadable: counting starts now). */
  async load(): Promise<void> {
    try {
      const stored = await this.store.getRecallStats();
      if (stored !== null && valid(stored)) this.doc = stored;
    } catch (err) {
      this.onError(err);
    }
  }

  /** One recall took `ms`; `hit`: it returned something; `at`: the engine's clock. */
  record(ms: number, hit: boolean, at: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const d = this.doc;
    const took = round2(ms);
    d.count++;
    if (hit) d.hits++;
    d.sumMs = round2(d.sumMs + ms);
    d.recent.push(took);
    if (d.recent.length > RECENT) d.recent.splice(0, d.recent.length - RECENT);
    const start = Math.floor(at / HOUR) * HOUR;
    let hour = d.hours[d.hours.length - 1];
    if (!hour || hour.at !== start) {
      if (hour) closeHour(hour);
      hour = { at: start, count: 0, hits: 0, p50Ms: null, p95Ms: null, durations: [] };
      d.hours.push(hour);
      if (d.hours.length > HOURS_KEPT) d.hours.splice(0, d.hours.length - HOURS_KEPT);
    }
    hour.count++;
    if (hit) hour.hits++;
    const durations = (hour.durations ??= []);
    durations.push(took);
    if (durations.length > PER_HOUR) durations.splice(0, durations.length - PER_HOUR);
    hour.p50Ms = quantile(durations, 0.5);
    hour.p95Ms = quantile(durations, 0.95);
    if (this.unsaved++ === 0) this.firstUnsavedAt = at;
    if (this.unsaved >= SAVE_EVERY || at - this.firstUnsavedAt >= SAVE_AFTER_MS) {
      this.inFlight = this.inFlight.then(() => this.save()).catch(this.onError);
    }
  }

  /** Writes what is not saved yet and waits for it. */
  async flush(): Promise<void> {
    await this.inFlight;
    await this.save();
  }

  private async save(): Promise<void> {
    if (this.unsaved === 0) return;
    // A read-only store keeps no statistics; the process still reports its own.
    if (this.store.readOnly) {
      this.unsaved = 0;
      return;
    }
    const n = this.unsaved;
    this.unsaved = 0;
    try {
      await this.store.putRecallStats(structuredClone(this.doc));
    } catch (err) {
      this.unsaved += n;
      throw err;
    }
  }

  get since(): number {
    return this.doc.since;
  }

  get count(): number {
    return this.doc.count;
  }

  get hits(): number {
    return this.doc.hits;
  }

  get sumMs(): number {
    return this.doc.sumMs;
  }

  /** Over the last recalls (at most 1024). */
  quantile(q: number): number | null {
    return quantile(this.doc.recent, q);
  }

  /** Hours with recalls, oldest first. */
  history(): RecallHourSummary[] {
    return this.doc.hours.map(({ at, count, hits, p50Ms, p95Ms }) => ({ at, count, hits, p50Ms, p95Ms }));
  }
}

/** A past hour keeps its quantiles, not its durations. */
function closeHour(hour: RecallHour): void {
  if (!hour.durations) return;
  hour.p50Ms = quantile(hour.durations, 0.5);
  hour.p95Ms = quantile(hour.durations, 0.95);
  delete hour.durations;
}
