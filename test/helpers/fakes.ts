import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EngineConfigInput } from "../../src/core/config.js";
import { MemoryEngine } from "../../src/core/engine.js";
import type { Clock, Embedder, MemoryStore, ModelInfo } from "../../src/core/ports.js";
import { InMemoryStore } from "../../src/stores/memory/memoryStore.js";

export const FAKE_DIMENSION = 64;

/** FNV-1a over the UTF-16 code units of a token. */
function hash(token: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) {
    h ^= token.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Lowercased Latin words and numbers; CJK runs as character bigrams (single characters when alone). */
export function fakeTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0];
    if (/[\u3400-\u9fff]/.test(word)) {
      const chars = [...word];
      if (chars.length === 1) out.push(word);
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
    } else {
      out.push(word);
    }
  }
  return out;
}

/** Deterministic bag-of-words embedder: word tokens hashed into 64 buckets, L2-normalised. */
export class FakeEmbedder implements Embedder {
  calls = 0;

  constructor(private readonly id = "fake-embedder") {}

  async info(): Promise<ModelInfo> {
    return { id: this.id, dimension: FAKE_DIMENSION };
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls++;
    return texts.map((t) => fakeVector(t));
  }
}

export function fakeVector(text: string): Float32Array {
  const v = new Float32Array(FAKE_DIMENSION);
  for (const t of fakeTokens(text)) {
    const h = hash(t);
    v[h % FAKE_DIMENSION]! += 1;
  }
  return normalise(v);
}

/** L2-normalised copy; the zero vector becomes the first unit vector so cosine stays defined. */
export function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const out = new Float32Array(v.length);
  if (n === 0) {
    out[0] = 1;
    return out;
  }
  const s = 1 / Math.sqrt(n);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * s;
  return out;
}

export const T0 = Date.UTC(2026, 2, 18, 10, 0, 0); // Wednesday 2026-03-18 10:00 UTC
export const MINUTE = 60_000;
export const DAY = 86_400_000;

export class FixedClock implements Clock {
  constructor(private t = T0) {}
  now(): number {
    return this.t;
  }
  set(ms: number): void {
    this.t = ms;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export interface TestEngine {
  engine: MemoryEngine;
  clock: FixedClock;
  store: MemoryStore;
  embedder: FakeEmbedder;
}

/** An opened engine over a fake embedder, a fixed clock and (by default) an in-memory store. */
export async function makeEngine(store: MemoryStore = new InMemoryStore(), config: EngineConfigInput = {}): Promise<TestEngine> {
  const clock = new FixedClock();
  const embedder = new FakeEmbedder();
  let n = 0;
  const engine = new MemoryEngine({ store, embedder, clock, newId: () => `id-${String(++n).padStart(4, "0")}` }, { defaultScope: "project:test", ...config });
  await engine.open();
  return { engine, clock, store, embedder };
}

/** Runs fn with a fresh temporary folder and removes it afterwards, whatever happens. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "hindsight-test-"));
  try {
    return await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Awaits a promise that must reject; returns the error for further checks. */
export async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error("expected the promise to reject, but it resolved");
}

/** Two unit vectors with the given cosine: what the model would say about a pair, without the model. */
export function vectorsAt(cos: number): [Float32Array, Float32Array] {
  const a = new Float32Array(8);
  const b = new Float32Array(8);
  a[0] = 1;
  b[0] = cos;
  b[1] = Math.sqrt(1 - cos * cos);
  return [a, b];
}
