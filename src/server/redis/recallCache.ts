import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { ALL_SCOPES, type KeptRecall, type RecallCache } from "../../core/ports.js";
import type { ChangedMemory, RecallReach, ScopeChange } from "../../core/recall/reach.js";
import type { RecallResult } from "../../core/recall/types.js";

export interface RedisRecallCacheOptions {
  redis: Redis;
  prefix?: string;
  /** How long an answer is kept at most, even if nothing changes (time decay, facts that expire). */
  ttlMs?: number;
}

/** Changes a kept answer may lag behind and still be judged; further behind, it is computed again. */
const MAX_BEHIND = 64;

/** Counts the scope's change and notes what it was, in one step: a reader never sees the number without the note. */
const NOTE_CHANGE = `
local g = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], g, ARGV[1])
local old = g - tonumber(ARGV[2])
if old > 0 then redis.call('HDEL', KEYS[2], old) end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return g`;

interface StoredAnswer {
  gen: number;
  all: number;
  result: RecallResult;
  reach: Omit<RecallReach, "vector"> & { vector: string | null };
}

/**
 * Recall answers in Redis, shared by the replicas. Each scope has a change number, INCRed by every
 * change, and a note per number of what the change stored (its memories' ids, vectors and terms; "?"
 * when unknown). An answer is kept under its question with the numbers read before it was computed;
 * a lookup hands back the notes since, and the engine serves the answer only if none could have
 * reached it (reach.ts). A change to every scope (an import, an edit) is not described: answers kept
 * before it are not served. An answer computed from the store before a change carries the number
 * from before it, so that change is always judged against it.
 */
export class RedisRecallCache implements RecallCache {
  private readonly prefix: string;
  private readonly ttlMs: number;

  constructor(private readonly options: RedisRecallCacheOptions) {
    this.prefix = `${options.prefix ?? "hindsight"}:`;
    this.ttlMs = options.ttlMs ?? 120_000;
  }

  private generationKey(scope: string): string {
    return scope === ALL_SCOPES ? `${this.prefix}gen:all` : `${this.prefix}gen:scope:${scope}`;
  }

  private notesKey(scope: string): string {
    return `${this.prefix}changes:scope:${scope}`;
  }

  async lookup(scope: string, key: string): Promise<{ kept: KeptRecall | null; since: Array<ScopeChange | null> | null; slot: string }> {
    const redis = this.options.redis;
    const answerKey = `${this.prefix}recall:${createHash("sha256").update(`${scope}\0${key}`).digest("hex")}`;
    const [mine, all, raw] = await redis.mget(this.generationKey(scope), this.generationKey(ALL_SCOPES), answerKey);
    const gen = Number(mine ?? 0);
    const allGen = Number(all ?? 0);
    const slot = JSON.stringify([answerKey, gen, allGen]);
    if (raw === null || raw === undefined) return { kept: null, since: null, slot };
    const stored = JSON.parse(raw) as StoredAnswer;
    const kept = { result: stored.result, reach: { ...stored.reach, vector: stored.reach.vector === null ? null : decodeVector(stored.reach.vector) } };
    if (stored.all !== allGen || stored.gen > gen || gen - stored.gen > MAX_BEHIND) return { kept, since: null, slot };
    if (stored.gen === gen) return { kept, since: [], slot };
    const numbers = Array.from({ length: gen - stored.gen }, (_, i) => String(stored.gen + 1 + i));
    const notes = await redis.hmget(this.notesKey(scope), ...numbers);
    if (notes.some((n) => n === null)) return { kept, since: null, slot };
    return { kept, since: notes.map((n) => decodeChange(n as string)), slot };
  }

  async keep(slot: string, answer: KeptRecall): Promise<void> {
    const [answerKey, gen, all] = JSON.parse(slot) as [string, number, number];
    const reach = { ...answer.reach, vector: answer.reach.vector === null ? null : encodeVector(answer.reach.vector) };
    const stored: StoredAnswer = { gen, all, result: answer.result, reach };
    await this.options.redis.set(answerKey, JSON.stringify(stored), "PX", this.ttlMs);
  }

  async changed(scope: string, change: ScopeChange | null): Promise<void> {
    if (scope === ALL_SCOPES) {
      await this.options.redis.incr(this.generationKey(scope));
      return;
    }
    // Notes live as long as the answers they are read for.
    await this.options.redis.eval(NOTE_CHANGE, 2, this.generationKey(scope), this.notesKey(scope), encodeChange(change), MAX_BEHIND, this.ttlMs);
  }
}

function encodeChange(change: ScopeChange | null): string {
  if (change === null) return "?";
  return JSON.stringify(change.memories.map((m) => [m.id, encodeVector(m.vector), m.terms]));
}

function decodeChange(note: string): ScopeChange | null {
  if (note === "?") return null;
  const rows = JSON.parse(note) as Array<[string, string, string[]]>;
  return { memories: rows.map(([id, vector, terms]): ChangedMemory => ({ id, vector: decodeVector(vector), terms })) };
}

/** Vectors as base64 of their float32 bytes: exact, and a quarter of their JSON. */
function encodeVector(v: Float32Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
}

function decodeVector(text: string): Float32Array {
  const bytes = Buffer.from(text, "base64");
  // A copy: the Buffer's memory may be shared and unaligned for a Float32Array view.
  const copy = new Uint8Array(bytes);
  return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
}
