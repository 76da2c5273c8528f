import type { AuditEntry, MemoryRecord, TurnRecord } from "../../src/core/model/memory.js";
import { T0 } from "./fakes.js";

/** A complete, valid memory record; override what the test is about. */
export function memoryRecord(overrides: Partial<MemoryRecord> & { id: string }): MemoryRecord {
  return {
    scope: "project:a",
    layer: "L3",
    type: "fact",
    subject: "general",
    content: `memory ${overrides.id}`,
    context: null,
    confidence: 0.8,
    source: "agent",
    sourceTurns: [],
    sourceRefs: [],
    sessionId: null,
    createdAt: T0,
    updatedAt: T0,
    confirmedAt: T0,
    lastAccessedAt: null,
    accessCount: 0,
    confirmCount: 1,
    validUntil: null,
    status: "active",
    statusReason: null,
    supersedes: [],
    supersededBy: null,
    conflictsWith: [],
    compressedInto: null,
    pinned: false,
    tags: [],
    embeddingModel: "fake-embedder",
    ...overrides,
  };
}

export function turnRecord(overrides: Partial<TurnRecord> & { id: string }): TurnRecord {
  return {
    scope: "project:a",
    sessionId: null,
    speaker: null,
    user: `turn ${overrides.id}`,
    assistant: null,
    ref: null,
    at: T0,
    status: "active",
    memoryIds: [],
    ...overrides,
  };
}

export function auditEntry(overrides: Partial<AuditEntry> & { id: string }): AuditEntry {
  return {
    at: T0,
    actor: "test",
    operation: "write",
    scope: "project:a",
    memoryIds: [],
    turnIds: [],
    detail: "test entry",
    ...overrides,
  };
}

/** A unit vector along axis i (plus an optional second axis), of the given dimension. */
export function axis(dimension: number, i: number, j?: number, weightJ = 0): Float32Array {
  const v = new Float32Array(dimension);
  v[i] = 1;
  if (j !== undefined) v[j] = weightJ;
  let n = 0;
  for (const x of v) n += x * x;
  const s = 1 / Math.sqrt(n);
  return v.map((x) => x * s);
}
