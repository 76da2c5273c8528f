import type { EngineContext } from "../context.js";
import { embedOne, thresholdsOf } from "../context.js";
import { searchText, type AuditEntry, type Layer, type MemoryRecord, type MemorySource, type MemoryType } from "../model/memory.js";
import type { Hit } from "../ports.js";
import { unreadable, type Thresholds } from "../model/profiles.js";
import { classifyType, inferSubject } from "./classify.js";
import type { FieldsVerdict } from "../guard/index.js";
import { guardWrite } from "./guardWrite.js";
import { llmDecide, type LlmJudgement, type LlmVerdict } from "./llmDecide.js";
import { announcesUpdate, pairSimilarity, relate, type Candidate, type Relation } from "./reconcile.js";
import { clausesOf, isAdditive, oldValues, versionsNamed } from "./slot.js";
import { takesSide } from "./settle.js";
import { stillHeld, taskLifetimeMs } from "../model/lastKnown.js";
import { contentTokenSet, lexicalSimilarity } from "../text/tokens.js";
import { parseValidUntil } from "./validity.js";
import type { WriteAction } from "../model/writeActions.js";
import { replaceTargets, supersededByCaller } from "./replaces.js";
import type { StagingStore } from "./stagedWrites.js";
import { asSpoken, chatterLean, holdsLookupValue, namesSomeone } from "./chatter.js";

/**
 * What the decide-and-commit step needs: the engine's context, with the scope's memories as a batch
 * of writes sees them (StagedWrites), or the store itself.
 */
export type WriteContext = Omit<EngineContext, "store"> & { store: StagingStore };

export type { WriteAction };

export interface WriteResult {
  id: string | null;
  action: WriteAction;
  reason: string;
  /** True when the guard refused or quarantined the content. */
  flagged: boolean;
  supersedes: string[];
  conflictsWith: string[];
  memory: MemoryRecord | null;
  /** Who decided what the write replaced: the caller (it named `replaces`), the configured LLM, or the engine's rules. */
  decidedBy: WriteDecider;
  /** Why a configured LLM did not decide (timeout, error, unreadable answer); absent when it did or none is configured. */
  llmFallback?: string;
}

export type WriteDecider = "caller" | "llm" | "rules";

/** A write path's own result; writeMemory says who decided when the path does not. */
type Decision = Omit<WriteResult, "decidedBy"> & { decidedBy?: WriteDecider };

export interface WriteRequest {
  content: string;
  scope: string;
  type?: MemoryType | undefined;
  subject?: string | undefined;
  confidence?: number | undefined;
  /** undefined: infer from the text; null: explicitly unbounded. */
  validUntil?: number | null | undefined;
  layer?: Layer | undefined;
  tags?: string[] | undefined;
  pinned?: boolean | undefined;
  sessionId?: string | undefined;
  source: MemorySource;
  sourceTurns?: string[];
  sourceRefs?: string[];
  /** Speaker for subject inference of extracted statements. */
  speaker?: string | null;
  /** See MemoryRecord.context. */
  context?: string | null;
  /** Ids of active memories of the same scope this write replaces (see replaces.ts). */
  replaces?: string[] | undefined;
  /** Set when the turn this was extracted from is an injection: quarantined with this reason whatever its own words. */
  quarantineReason?: string | undefined;
  /** The speaker opened the statement as one more point ("also, …", "另外…"), a word extraction leaves out (extract.ts). */
  addition?: boolean | undefined;
}

function chooseLayer(type: MemoryType, confidence: number, l3Min: number): Layer {
  if (type === "task_state") return "L1";
  if (type === "event" || confidence < l3Min) return "L2";
  return "L3";
}

/**
 * The memories a new statement may restate or replace: the closest by vector of every type (a
 * change is often classified differently from the fact it changes), plus full-text hits for CJK
 * text and for an old value the statement names ("from Celery to …" finds the memory saying Celery).
 */
async function neighbours(ctx: WriteContext, req: { scope: string; content: string }, vector: Float32Array, now: number, olds: string[][], t: Thresholds) {
  // A task's last known state is still what a newer state of the task replaces, after its working lifetime too.
  const filter = { scope: req.scope, statuses: ["active" as const] };
  const taskTtlMs = taskLifetimeMs(ctx.config);
  const held = (h: Hit<MemoryRecord>): boolean => stillHeld(h.record, now, taskTtlMs);
  const byVector = (await ctx.store.searchMemoriesByVector(vector, filter, ctx.config.write.neighbourVectorHits)).filter(held);
  const found = new Map<string, Hit<MemoryRecord>>(byVector.map((h) => [h.record.id, h]));
  const texts = [...(unreadable(req.content, t) ? [req.content] : []), ...olds.map((v) => v.join(" "))];
  for (const text of texts) {
    for (const h of await ctx.store.searchMemoriesByText(text, filter, ctx.config.write.neighbourTextHits)) if (held(h) && !found.has(h.record.id)) found.set(h.record.id, h);
  }
  return [...found.values()];
}

/**
 * A write made ready without reading the scope's memories: guarded, classified and embedded. These
 * are the slow steps that need no lock; commitWrite decides against the scope as it is then.
 */
export interface PreparedWrite {
  req: WriteRequest;
  verdict: FieldsVerdict;
  now: number;
  /** Null when the guard refused the content (nothing is embedded or stored). */
  record: MemoryRecord | null;
  vector: Float32Array | null;
  /** See Candidate.clauses. */
  clauses?: Array<{ text: string; vector: Float32Array }>;
  /** The extractor's statement read as chatter (write/chatter.ts): nothing is stored. */
  chatter?: true;
}

/** Kinds of statement that are never chatter, whatever their tone. */
const KEPT_KINDS: ReadonlySet<MemoryType> = new Set(["event", "preference", "constraint"]);

/**
 * Only what the extractor pulled out of a conversation is read for chatter: a caller who writes a memory
 * means it. A statement holding a value is kept whatever its tone.
 */
async function isChatter(ctx: EngineContext, record: MemoryRecord, vector: Float32Array, speaker: string | null | undefined): Promise<boolean> {
  const lean = thresholdsOf(ctx).chatterLean;
  const content = record.content;
  // Something that happened, a liking or a rule, or a sentence that names someone (the named speaker too, whose
  // name the extractor put for "I") is a record of a life however light its tone: "went bouldering with Priya
  // on Sunday", "Dev loves the new studio" answer a later question.
  if (record.source !== "extractor" || lean === undefined || !ctx.config.write.chatterByModel || KEPT_KINDS.has(record.type)) return false;
  if (holdsLookupValue(content) || namesSomeone(content) || (speaker && content.includes(speaker))) return false;
  // A statement rewritten about "the user" is read as it was said, in the first person, as the examples are: read
  // in the third person a standing fact can lean toward chatter ("用户对咖啡因过敏" 0.022, "我对咖啡因过敏" −0.009).
  const spoken = asSpoken(content);
  return (await chatterLean(ctx.embedder, ctx.model.id, spoken === null ? vector : await embedOne(ctx, spoken))) > lean;
}

/** Clauses worth embedding on their own: those of a message of several that announces a change (at most four, each saying something). */
function clausesToEmbed(text: string): string[] {
  if (!announcesUpdate(text)) return [];
  const clauses = clausesOf(text).filter((c) => contentTokenSet(c).size >= 2);
  return clauses.length >= 2 ? clauses.slice(0, 4) : [];
}

/**
 * `embedded`: a text already embedded as a passage with its vector (a turn said as one statement is
 * stored as that statement: the model is not asked twice).
 */
export async function prepareWrite(ctx: EngineContext, req: WriteRequest, embedded?: { text: string; vector: Float32Array }): Promise<PreparedWrite> {
  const now = ctx.clock.now();
  const verdict = await guardWrite(req);
  if (verdict.kind === "secret") return { req, verdict, now, record: null, vector: null };
  const record = newRecord(ctx, req, now);
  const text = searchText(record);
  const clauses = clausesToEmbed(record.content);
  const reuse = embedded?.text === text;
  const vectors = await ctx.embedder.embed(reuse ? clauses : [text, ...clauses]);
  const vector = reuse ? embedded.vector : vectors.shift();
  if (!vector) throw new Error("embedder returned no vector");
  if (await isChatter(ctx, record, vector, req.speaker)) return { req, verdict, now, record: null, vector: null, chatter: true };
  return { req, verdict, now, record, vector, ...(clauses.length > 0 ? { clauses: clauses.map((c, i) => ({ text: c, vector: vectors[i] as Float32Array })) } : {}) };
}

/**
 * The decide-and-commit step of a prepared write: dedup / supersede / conflict against the scope's
 * memories, persist, audit. Run it in the scope's queue (ScopeQueue). Ids the caller names in
 * `replaces` are checked first, so a bad one leaves the store untouched.
 */
export async function commitWrite(ctx: WriteContext, prepared: PreparedWrite): Promise<WriteResult> {
  const replaced = await replaceTargets(ctx, prepared.req.scope, prepared.req.replaces);
  const r = await decideWrite(ctx, prepared, replaced);
  return { ...r, decidedBy: r.decidedBy ?? "rules" };
}

/** The whole write path after extraction, for callers that hold the scope's queue already. */
export async function writeMemory(ctx: EngineContext, req: WriteRequest): Promise<WriteResult> {
  return commitWrite(ctx, await prepareWrite(ctx, req));
}

async function decideWrite(ctx: WriteContext, prepared: PreparedWrite, replaced: MemoryRecord[]): Promise<Decision> {
  const { req, verdict, now, record, vector } = prepared;
  if (prepared.chatter) return { id: null, action: "skipped", reason: "read as chatter: nearer small talk than anything worth keeping", flagged: false, supersedes: [], conflictsWith: [], memory: null };
  if (verdict.kind === "secret" || record === null || vector === null) {
    await audit(ctx, "refuse", req.scope, [], req.sourceTurns ?? [], verdict.reason);
    return { id: null, action: "skipped", reason: verdict.reason, flagged: true, supersedes: [], conflictsWith: [], memory: null };
  }

  if (verdict.kind === "injection") {
    record.status = "quarantined";
    record.statusReason = verdict.reason;
    await ctx.store.putMemories([{ record, vector }]);
    await audit(ctx, "quarantine", req.scope, [record.id], record.sourceTurns, verdict.reason);
    return { id: record.id, action: "quarantined", reason: verdict.reason, flagged: true, supersedes: [], conflictsWith: [], memory: record };
  }

  if (replaced.length > 0) return writeReplacing(ctx, record, vector, replaced, now);

  const t = thresholdsOf(ctx);
  const olds = oldValues(record.content);
  const nearby = await neighbours(ctx, record, vector, now, olds, t);
  const candidate: Candidate = { ...record, vector, now, oldValues: olds, versions: versionsNamed(record.content), ...(prepared.clauses ? { clauses: prepared.clauses.map((c) => ({ content: c.text, vector: c.vector })) } : {}) };
  const found = nearby.flatMap((hit) => {
    const rel = relate(candidate, hit.record, hit.vector, ctx.config, t);
    return rel ? [{ rel, similarity: pairSimilarity({ content: record.content, vector }, { content: hit.record.content, vector: hit.vector }, t) }] : [];
  });
  const judged = ctx.llm ? await judgeWithLlm(ctx, candidate, nearby, found, t) : null;
  const relations = judged?.ok ? fromVerdict(judged.verdict, ctx.llm?.id ?? "llm") : strongest(found, record.subject !== "" && req.subject !== undefined && req.source !== "extractor", record.content, olds);
  const decidedBy: WriteDecider = judged?.ok ? "llm" : "rules";
  const llmFallback = judged && !judged.ok ? { llmFallback: judged.reason } : {};

  if (relations.length === 0) addsTo(ctx, record, vector, nearby, t, req.addition === true);
  const duplicate = relations.find((r) => r.kind === "duplicate");
  const settled = await settledConflicts(ctx, record, vector, nearby, relations, t);
  if (duplicate) {
    const existing = duplicate.existing;
    // A restatement of one side of a conflict settles it for that side: the memory restated replaces the other.
    const losers = settled.filter((s) => s.side.id === existing.id).map((s) => s.other);
    const updated: MemoryRecord = {
      ...existing,
      conflictsWith: existing.conflictsWith.filter((id) => !losers.some((l) => l.id === id)),
      supersedes: union(existing.supersedes, losers.map((l) => l.id)),
      confidence: Math.max(existing.confidence, record.confidence),
      confirmCount: existing.confirmCount + 1,
      confirmedAt: now,
      updatedAt: now,
      validUntil: req.validUntil === undefined ? existing.validUntil : record.validUntil,
      sourceTurns: union(existing.sourceTurns, record.sourceTurns),
      sourceRefs: union(existing.sourceRefs, record.sourceRefs),
      tags: union(existing.tags, record.tags),
    };
    await ctx.store.updateMemories([updated, ...losers.map((l) => lostConflict(l, existing.id, now))]);
    await audit(ctx, "write", req.scope, [existing.id, ...losers.map((l) => l.id)], record.sourceTurns, losers.length > 0 ? "restatement: existing memory confirmed; settled its conflict" : "restatement: existing memory confirmed");
    return { id: existing.id, action: "duplicate", reason: `restates memory ${existing.id}`, flagged: false, supersedes: [], conflictsWith: [], memory: updated, decidedBy, ...llmFallback };
  }

  const changed: MemoryRecord[] = [];
  const reasons: string[] = [];
  // The caller's own type stands; the classifier's guess (no type given, or the extractor's) gives way to the task it continues.
  if ((req.type === undefined || req.source === "extractor") && relations.some((r) => r.kind === "supersedes" && r.continuesTask)) asTaskState(ctx, record);
  // A new value of a rule or a preference is still one ("max on-time is now 6 minutes, 10 was too much"): a guessed "fact" takes its kind.
  const ruled = relations.find((r) => r.kind === "supersedes" && (r.existing.type === "constraint" || r.existing.type === "preference"));
  if ((req.type === undefined || req.source === "extractor") && record.type === "fact" && ruled) record.type = ruled.existing.type;
  for (const rel of relations) {
    if (rel.kind === "supersedes") {
      record.supersedes.push(rel.existing.id);
      // "no wait, the blue one" / "不对，是三号楼" says only the new value: the corrected statement says what it is about, so search finds it by that.
      if (rel.elliptical) record.context = record.context ? `${record.context} ${rel.existing.content}` : rel.existing.content;
      changed.push({ ...rel.existing, status: "superseded", supersededBy: record.id, statusReason: rel.reason, updatedAt: now });
      reasons.push(rel.reason);
    } else if (rel.kind === "conflict") {
      record.conflictsWith.push(rel.existing.id);
      changed.push({ ...rel.existing, conflictsWith: union(rel.existing.conflictsWith, [record.id]), updatedAt: now });
      reasons.push(rel.reason);
    } else if (rel.kind === "superseded_by" && record.status === "active") {
      record.status = "superseded";
      record.supersededBy = rel.existing.id;
      record.statusReason = rel.reason;
      changed.push({ ...rel.existing, supersedes: union(rel.existing.supersedes, [record.id]), updatedAt: now });
      reasons.push(rel.reason);
    }
  }

  for (const { side, other } of settled) {
    if (record.status !== "active" || changed.some((c) => c.id === other.id)) continue;
    record.supersedes.push(other.id);
    changed.push(lostConflict(other, record.id, now));
    const sideNow = changed.find((c) => c.id === side.id);
    if (sideNow) sideNow.conflictsWith = sideNow.conflictsWith.filter((id) => id !== other.id);
    else changed.push({ ...side, conflictsWith: side.conflictsWith.filter((id) => id !== other.id), updatedAt: now });
    reasons.push("settles a reported conflict: takes the side of the memory it agrees with");
  }

  await ctx.store.putMemories([{ record, vector }]);
  if (changed.length > 0) await ctx.store.updateMemories(changed);
  // "superseded": this write replaced older memories; "skipped": it lost to an existing, more confident one (kept as history).
  const action: WriteAction = record.status === "superseded" ? "skipped" : record.supersedes.length > 0 ? "superseded" : "added";
  const detail = record.supersedes.length > 0 ? `added; superseded ${record.supersedes.length}` : action;
  await audit(ctx, "write", req.scope, [record.id, ...changed.map((c) => c.id)], record.sourceTurns, detail);
  return {
    id: record.id,
    action,
    reason: reasons.length > 0 ? reasons.join("; ") : "new memory",
    flagged: false,
    supersedes: record.supersedes,
    conflictsWith: record.conflictsWith,
    memory: record,
    decidedBy,
    ...llmFallback,
  };
}

/**
 * An addition ("we also run Sentry", "店里也收现金", or a point the speaker opened with "also," / "另外"
 * that extraction left out) answers the question the statement it adds to answers: it keeps that statement as its context, so full text finds both by the same words and
 * recall lets each bring the other along (recall.ts companions). The closest memory on the same
 * topic is the one added to; without one, the statement stands alone.
 */
function addsTo(ctx: WriteContext, record: MemoryRecord, vector: Float32Array, nearby: Array<Hit<MemoryRecord>>, t: Thresholds, opensAsAddition: boolean): void {
  if (!(opensAsAddition || isAdditive(record.content)) || record.type === "event" || record.context !== null) return;
  let best: { content: string; similarity: number } | null = null;
  for (const hit of nearby) {
    if (hit.record.type === "event" || hit.record.status !== "active") continue;
    const lexical = unreadable(record.content, t) || unreadable(hit.record.content, t);
    const similarity = lexical ? lexicalSimilarity(record.content, hit.record.content) : pairSimilarity({ content: record.content, vector }, { content: hit.record.content, vector: hit.vector }, t);
    // "Also" says there is a first one: the closest memory on the topic is it, at the looser bar a named old value uses.
    const topic = lexical ? ctx.config.write.topicSimilarityCjk : t.namedValueTopic;
    if (similarity >= topic && (!best || similarity > best.similarity)) best = { content: hit.record.content, similarity };
  }
  if (best) record.context = best.content;
}

/** The losing side of a settled conflict: replaced by the side the later statement took. */
function lostConflict(other: MemoryRecord, winner: string, now: number): MemoryRecord {
  return { ...other, status: "superseded", supersededBy: winner, statusReason: "a later statement took the other side of the reported conflict", updatedAt: now };
}

/**
 * A reported conflict stays open until a later statement takes one side (settle.ts takesSide): "the
 * producers went with X", "定了周四，周二那版作废". The side not taken is then replaced. Only a memory in
 * conflict that is close to the statement (the bar a named old value uses) is considered, and never one
 * the statement already replaces.
 */
async function settledConflicts(
  ctx: WriteContext,
  record: MemoryRecord,
  vector: Float32Array,
  nearby: Array<Hit<MemoryRecord>>,
  relations: Relation[],
  t: Thresholds,
): Promise<Array<{ side: MemoryRecord; other: MemoryRecord }>> {
  const replaced = new Set(relations.filter((r) => r.kind === "supersedes").map((r) => r.existing.id));
  const out: Array<{ side: MemoryRecord; other: MemoryRecord }> = [];
  for (const hit of nearby) {
    const side = hit.record;
    if (side.conflictsWith.length === 0 || replaced.has(side.id)) continue;
    const lexical = unreadable(record.content, t) || unreadable(side.content, t);
    const similarity = lexical ? lexicalSimilarity(record.content, side.content) : pairSimilarity({ content: record.content, vector }, { content: side.content, vector: hit.vector }, t);
    if (similarity < (lexical ? ctx.config.write.topicSimilarityCjk : t.namedValueTopic)) continue;
    const others = await ctx.store.getMemories(side.conflictsWith.filter((id) => !replaced.has(id)));
    for (const other of others) {
      if (other.status !== "active" || out.some((o) => o.other.id === other.id || o.side.id === other.id)) continue;
      if (takesSide(record.content, side.content, other.content)) out.push({ side, other });
    }
  }
  return out;
}

/** The record becomes the task state it continues: working memory (its time there is read from its age, see workingMemory in recall.ts). */
function asTaskState(ctx: WriteContext, record: MemoryRecord): void {
  record.type = "task_state";
  record.layer = chooseLayer("task_state", record.confidence, ctx.config.write.l3MinConfidence);
}

/**
 * With an LLM configured it decides add / update / keep against the closest memories of the scope
 * (every type; those the rules related come first), in one call bounded by llmTimeoutMs. Nothing
 * close: no call, nothing to decide. A failed call is reported and the rules' decision stands.
 */
async function judgeWithLlm(ctx: WriteContext, candidate: Candidate, nearby: Array<Hit<MemoryRecord>>, found: Array<{ rel: Relation }>, t: Thresholds): Promise<LlmJudgement | null> {
  const llm = ctx.llm;
  if (!llm) return null;
  const related = new Set(found.map((f) => f.rel.existing.id));
  const closest = nearby
    .map((hit) => ({ hit, similarity: pairSimilarity({ content: candidate.content, vector: candidate.vector }, { content: hit.record.content, vector: hit.vector }, t) }))
    .filter(({ hit, similarity }) => related.has(hit.record.id) || similarity >= t.namedValueTopic)
    .sort((a, b) => Number(related.has(b.hit.record.id)) - Number(related.has(a.hit.record.id)) || b.similarity - a.similarity)
    .slice(0, ctx.config.write.llmNeighbours)
    .map(({ hit }) => hit.record);
  if (closest.length === 0) return null;
  return llmDecide(llm, candidate.content, closest, ctx.config.write.llmTimeoutMs);
}

/** The LLM's verdict as relations: update supersedes what it named (newer wins), keep confirms one, add relates to nothing. */
function fromVerdict(verdict: LlmVerdict, llmId: string): Relation[] {
  if (verdict.action === "keep") return [{ kind: "duplicate", existing: verdict.target }];
  if (verdict.action === "update") return verdict.targets.map((existing) => ({ kind: "supersedes", existing, reason: `judged by ${llmId}: this statement updates it` }));
  return [];
}

/**
 * One new statement replaces one earlier value: only the closest related memory is affected, and a
 * memory holding the value the statement names comes before any other relation. A value said twice in
 * other words ("CI runs on Buildbot", "the Buildbot VM does every build") is one value: the statement
 * also replaces a further memory holding it when the two share a word besides the value ("the Buildbot
 * box"/"no more Buildbot, the old box goes"); a memory that only shares the name ("the Sony Venice
 * camera" against "Venice won't work as the festival") is another thing called alike. With an explicit
 * subject every memory of the same slot goes (they are one attribute of one thing).
 */
function strongest(found: Array<{ rel: Relation; similarity: number }>, explicitSubject: boolean, content: string, olds: string[][]): Relation[] {
  const dup = found.find((f) => f.rel.kind === "duplicate");
  if (dup) return [dup.rel];
  const named = found.filter((f) => f.rel.kind === "supersedes" && f.rel.namedValue === true).sort((a, b) => b.similarity - a.similarity);
  if (named.length > 0) {
    const values = new Set(olds.flat());
    const words = [...contentTokenSet(content)].filter((w) => !values.has(w));
    const alsoAbout = (other: MemoryRecord) => {
      const held = contentTokenSet(other.content);
      return words.some((w) => held.has(w));
    };
    // A correction names no value: it replaces the one closest statement it corrects, never a neighbour that shares a word.
    const best = named[0] as { rel: Relation };
    if (best.rel.kind === "supersedes" && best.rel.elliptical) return [best.rel];
    return named.filter((f, i) => i === 0 || alsoAbout(f.rel.existing)).map((f) => f.rel);
  }
  if (explicitSubject) return found.map((f) => f.rel);
  const best = [...found].sort((a, b) => b.similarity - a.similarity)[0];
  return best ? [best.rel] : [];
}

/**
 * The caller named what this write replaces: its judgement stands instead of the rules' dedup,
 * supersede and conflict checks — a restatement of a replaced memory is stored as the new one, not
 * folded into it, and the rules do not supersede anything the caller did not name.
 */
async function writeReplacing(ctx: WriteContext, record: MemoryRecord, vector: Float32Array, replaced: MemoryRecord[], now: number): Promise<Decision> {
  record.supersedes.push(...replaced.map((m) => m.id));
  const changed = supersededByCaller(replaced, record.id, now);
  await ctx.store.putMemories([{ record, vector }]);
  await ctx.store.updateMemories(changed);
  await audit(ctx, "write", record.scope, [record.id, ...record.supersedes], record.sourceTurns, `added; superseded ${changed.length} named by the caller`);
  return {
    id: record.id,
    action: "superseded",
    reason: "the caller named the memories it replaces",
    flagged: false,
    supersedes: [...record.supersedes],
    conflictsWith: [],
    memory: record,
    decidedBy: "caller",
  };
}

function union(a: string[], b: string[]): string[] {
  return [...new Set([...a, ...b])];
}

export async function audit(
  ctx: WriteContext,
  operation: AuditEntry["operation"],
  scope: string | null,
  memoryIds: string[],
  turnIds: string[],
  detail: string,
): Promise<void> {
  // The audit line follows the change it records: once that is stored, a failed audit line (a full
  // disk) is logged, never reported as the change's failure.
  try {
    await ctx.store.appendAudit({ id: ctx.newId(), at: ctx.clock.now(), actor: ctx.config.actor, operation, scope, memoryIds, turnIds, detail });
  } catch (err) {
    ctx.logger.warn("could not append to the audit log after a stored change", { operation, memoryIds, error: String(err) });
  }
}

/** A new active record for a request: the engine fills what the caller left out (type, subject, confidence, layer, validity). */
export function newRecord(ctx: EngineContext, req: WriteRequest, now: number): MemoryRecord {
  const type = req.type ?? classifyType(req.content);
  const confidence = req.confidence ?? ctx.config.write.defaultConfidence;
  return {
    id: ctx.newId(),
    scope: req.scope,
    layer: req.layer ?? chooseLayer(type, confidence, ctx.config.write.l3MinConfidence),
    type,
    subject: req.subject ?? inferSubject(req.content, req.speaker ?? null),
    content: req.content,
    context: req.context ?? null,
    confidence,
    source: req.source,
    sourceTurns: req.sourceTurns ?? [],
    sourceRefs: req.sourceRefs ?? [],
    sessionId: req.sessionId ?? null,
    createdAt: now,
    updatedAt: now,
    confirmedAt: now,
    lastAccessedAt: null,
    accessCount: 0,
    confirmCount: 1,
    validUntil: req.validUntil === undefined ? parseValidUntil(req.content, now) : req.validUntil,
    status: "active",
    statusReason: null,
    supersedes: [],
    supersededBy: null,
    conflictsWith: [],
    compressedInto: null,
    pinned: req.pinned ?? false,
    tags: req.tags ?? [],
    embeddingModel: ctx.model.id,
  };
}

/**
 * Bulk load of already-distilled memories (import, benchmarks): guard and classification apply,
 * embeddings are batched, but no dedup or supersede against the store — the source is trusted to be consistent.
 */
export async function importMemories(ctx: EngineContext, reqs: WriteRequest[]): Promise<{ imported: number; refused: number }> {
  const now = ctx.clock.now();
  let imported = 0;
  let refused = 0;
  const step = ctx.config.write.importBatch;
  for (let i = 0; i < reqs.length; i += step) {
    const slice = reqs.slice(i, i + step);
    const verdicts = await Promise.all(slice.map((req) => guardWrite(req)));
    const batch = slice.flatMap((req, j) => {
      const verdict = verdicts[j] as Awaited<ReturnType<typeof guardWrite>>;
      if (verdict.kind === "secret") {
        refused++;
        return [];
      }
      const record = newRecord(ctx, req, now);
      if (verdict.kind === "injection") {
        record.status = "quarantined";
        record.statusReason = verdict.reason;
      }
      return [record];
    });
    const vectors = await ctx.embedder.embed(batch.map(searchText));
    await ctx.store.putMemories(batch.map((record, j) => ({ record, vector: vectors[j] as Float32Array })));
    imported += batch.length;
  }
  await audit(ctx, "write", null, [], [], `imported ${imported} memories, refused ${refused}`);
  return { imported, refused };
}
