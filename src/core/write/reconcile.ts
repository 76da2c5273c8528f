import type { EngineConfig } from "../config.js";
import type { MemoryRecord, MemorySource, MemoryType } from "../model/memory.js";
import { isMostlyCjk } from "../text/cjk.js";
import { lexicalSimilarity, tokenDifference } from "../text/tokens.js";
import { cosine } from "../text/vector.js";
import { isGenericSubject } from "./classify.js";

export interface Candidate {
  content: string;
  type: MemoryType;
  subject: string;
  source: MemorySource;
  confidence: number;
  validUntil: number | null;
  vector: Float32Array;
  now: number;
}

export type Relation =
  | { kind: "duplicate"; existing: MemoryRecord }
  | { kind: "supersedes"; existing: MemoryRecord; reason: string }
  | { kind: "superseded_by"; existing: MemoryRecord; reason: string }
  | { kind: "conflict"; existing: MemoryRecord; reason: string };

/** Words a speaker uses when replacing an earlier statement ("now", "instead", "改用"). */
const CHANGE_CUE =
  /\b(now|instead|anymore|no longer|switched|switching|switch to|moved|migrated|changed|replaced|from now on|going forward|actually|updated|new)\b|改用|换成|改成|改为|换了|现在|不再|从今天开始|从现在开始|算了|最新|新的/i;

/** A statement restating the same thing with one value changed is this close even without a cue (cosine; lexical for CJK). */
const RESTATEMENT_SIMILARITY = 0.85;
const RESTATEMENT_SIMILARITY_CJK = 0.75;
const LEXICAL_TOPIC_WITH_CUE = 0.5;

const NEGATION = /\b(not|never|no longer|don't|doesn't|isn't|aren't|won't|stop|stopped|instead of)\b|不|别|没有|停止|不再/i;

/**
 * Similarity that means something for this pair: cosine of the embeddings for English, lexical
 * overlap of character bigrams when either side is mostly CJK (the model cannot read it).
 */
export function pairSimilarity(a: { content: string; vector: Float32Array }, b: { content: string; vector: Float32Array }): number {
  if (isMostlyCjk(a.content) || isMostlyCjk(b.content)) return lexicalSimilarity(a.content, b.content);
  return cosine(a.vector, b.vector);
}

/**
 * A subject names a particular thing only when a caller gave it explicitly: inferred subjects
 * ("user", a speaker's name, "project") say who spoke, not which attribute changed.
 */
function specificSubject(subject: string, source: MemorySource): boolean {
  return source !== "extractor" && !isGenericSubject(subject);
}

function sameSubject(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The statements say something different about the same thing: a value changed, or one negates. */
export function valueChanged(a: string, b: string): boolean {
  const { onlyA, onlyB } = tokenDifference(a, b);
  if (onlyA.length > 0 && onlyB.length > 0) return true;
  return NEGATION.test(a) !== NEGATION.test(b);
}

/**
 * How a new statement relates to an existing active memory of the same scope and type, or null when
 * they are unrelated. Rules: restatement → duplicate; events never contradict (they are history);
 * a bounded statement (valid_until) never replaces a standing one; a contradiction needs the same
 * explicit subject, or a near-restatement, or a similar statement with a change cue ("now",
 * "instead", "改用") — two things a person likes are not a contradiction; then newer wins, unless
 * both fall in the tie window, where higher confidence wins and equal is a conflict.
 */
export function relate(candidate: Candidate, existing: MemoryRecord, existingVector: Float32Array, config: EngineConfig): Relation | null {
  const sim = pairSimilarity({ content: candidate.content, vector: candidate.vector }, { content: existing.content, vector: existingVector });
  const cjk = isMostlyCjk(candidate.content) || isMostlyCjk(existing.content);
  const changed = valueChanged(candidate.content, existing.content);
  const subjectsSpecific = specificSubject(candidate.subject, candidate.source) && specificSubject(existing.subject, existing.source);
  if (subjectsSpecific && !sameSubject(candidate.subject, existing.subject)) return null;

  const dedupAt = cjk ? Math.min(config.write.dedupSimilarity, 0.8) : config.write.dedupSimilarity;
  if (!changed && sim >= dedupAt) return { kind: "duplicate", existing };

  if (candidate.type === "event" || existing.type === "event") return null;
  if ((candidate.validUntil === null) !== (existing.validUntil === null)) return null;
  const topicThreshold = cjk ? config.write.topicSimilarityCjk : config.write.topicSimilarity;
  // With a change cue, shared words are evidence of the same topic too ("lint the Python code with Flake8" → "switched to Ruff for linting the Python code").
  const sameTopic = sim >= topicThreshold || lexicalSimilarity(candidate.content, existing.content) >= LEXICAL_TOPIC_WITH_CUE;
  const topic = subjectsSpecific || sim >= (cjk ? RESTATEMENT_SIMILARITY_CJK : RESTATEMENT_SIMILARITY) || (sameTopic && CHANGE_CUE.test(candidate.content));
  if (!topic || !changed) return null;

  const reason = subjectsSpecific ? `same subject "${existing.subject}", different value` : `same topic (similarity ${sim.toFixed(2)}), different value`;
  return byTiming(candidate, existing, config, reason);
}

/** Could these two contradict at all: neither is an event, both bounded or both standing, and they are not about different explicit subjects. */
export function mayContradict(candidate: Candidate, existing: MemoryRecord): boolean {
  if (candidate.type === "event" || existing.type === "event") return false;
  if ((candidate.validUntil === null) !== (existing.validUntil === null)) return false;
  const specific = specificSubject(candidate.subject, candidate.source) && specificSubject(existing.subject, existing.source);
  return !specific || sameSubject(candidate.subject, existing.subject);
}

/** Who wins a contradiction: newer, unless both fall in the tie window — then higher confidence, and equal is a conflict. */
export function byTiming(candidate: Candidate, existing: MemoryRecord, config: EngineConfig, reason: string): Relation {
  const gap = candidate.now - existing.confirmedAt;
  if (gap <= config.write.tieWindowMs) {
    if (candidate.confidence > existing.confidence) return { kind: "supersedes", existing, reason: `${reason}; higher confidence` };
    if (candidate.confidence < existing.confidence) return { kind: "superseded_by", existing, reason: `${reason}; lower confidence than the existing memory` };
    return { kind: "conflict", existing, reason: `${reason}; stated within ${Math.round(config.write.tieWindowMs / 1000)}s with equal confidence` };
  }
  return { kind: "supersedes", existing, reason: `${reason}; newer statement` };
}
