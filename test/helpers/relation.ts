import { resolveConfig } from "../../src/core/config.js";
import type { MemoryRecord, MemorySource, MemoryType } from "../../src/core/model/memory.js";
import { MULTILINGUAL_E5_SMALL, thresholds } from "../../src/core/model/profiles.js";
import { relate, type Relation } from "../../src/core/write/reconcile.js";
import { DAY, T0, vectorsAt } from "./fakes.js";

const config = resolveConfig();
const t = thresholds(config, MULTILINGUAL_E5_SMALL);

/** How a statement said a week after another (of one type unless told), relates to it at the given cosine (the default model's thresholds). */
export function relationAfterAWeek(older: string, newer: string, cos: number, type: MemoryType = "fact", more: { olderType?: MemoryType; subject?: string; source?: MemorySource; clauses?: Array<[string, number]> } = {}): Relation | null {
  const [va, vb] = vectorsAt(cos);
  const existing = { id: "m1", content: older, type: more.olderType ?? type, subject: more.subject ?? "", source: more.source ?? "extractor", confidence: 0.8, validUntil: null, confirmedAt: T0, createdAt: T0 } as unknown as MemoryRecord;
  const candidate = { content: newer, type, subject: more.subject ?? "", source: more.source ?? ("extractor" as const), confidence: 0.8, validUntil: null, vector: vb, now: T0 + 7 * DAY, ...(more.clauses ? { clauses: more.clauses.map(([content, c]) => ({ content, vector: vectorsAt(c)[1] })) } : {}) };
  return relate(candidate, existing, va, config, t);
}
