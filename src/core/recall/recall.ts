import type { EngineContext } from "../context.js";
import { stillHeld, taskLifetimeMs } from "../model/lastKnown.js";
import { embedOne, thresholdsOf } from "../context.js";
import type { RecallParams } from "../model/inputs.js";
import { searchText, type MemoryRecord, type TurnRecord } from "../model/memory.js";
import type { Hit, MemoryFilter } from "../ports.js";
import { splitSentences } from "../text/sentences.js";
import { contentTokens, contentTokenSet, coverage } from "../text/tokens.js";
import { isGenericSubject, thirdParty } from "../write/classify.js";
import { firstUnflagged } from "../guard/index.js";
import { turnIsNoise } from "../write/extract.js";
import { turnText } from "../model/turnText.js";
import { clamp01, cosine } from "../text/vector.js";
import { writtenInCjk } from "../text/cjk.js";
import type { AccessTracker } from "./access.js";
import { formatRecall } from "./format.js";
import { distinctBest, fuseRelevance, mayReadSymmetric, queryFeatures, type QueryFeatures, type RelevanceParts } from "./relevance.js";
import { focusedQuery, refocus } from "./focus.js";
import { questionParts } from "./questionParts.js";
import { currentHolders } from "./lineage.js";
import { favourAnswerKind } from "./answerKind.js";
import { askedTime, closeness, saidAround } from "./temporal.js";
import { entityShare } from "./entityMatch.js";
import { entitiesIn } from "../text/entities.js";
import type { TimeSpan } from "../text/time.js";
import { accessBoost, byRank, countAccess, finalScore, timeDecay } from "./score.js";
import type { RecallConflict, RecalledMemory, RecallResult } from "./types.js";
import { queryTerms, type RecallReach } from "./reach.js";

interface Pooled<T> {
  record: T;
  vector: Float32Array;
  fullText: number;
  /** The replaced memory whose words the evidence was read from, when not the record's own (lineage.ts). */
  via?: T;
}

interface Candidate {
  c: Pooled<MemoryRecord>;
  parts: RelevanceParts;
}

/** Stage 1: vector and full-text candidates, pre-filtered, merged by id with full-text scores normalised to the best hit. */
function pool<T extends { id: string }>(byVector: Array<Hit<T>>, byText: Array<Hit<T>>, best = bestScore(byText)): Array<Pooled<T>> {
  const out = new Map<string, Pooled<T>>();
  for (const h of byVector) out.set(h.record.id, { record: h.record, vector: h.vector, fullText: 0 });
  for (const h of byText) {
    const norm = best > 0 ? h.score / best : 0;
    const existing = out.get(h.record.id);
    if (existing) existing.fullText = norm;
    else out.set(h.record.id, { record: h.record, vector: h.vector, fullText: norm });
  }
  return [...out.values()];
}

function bestScore<T>(hits: Array<Hit<T>>): number {
  return hits.reduce((m, h) => Math.max(m, h.score), 0);
}

/** Replaced memories searched per retriever, to lead a question to what replaced them (lineage.ts). */
const REPLACED_CANDIDATES = 10;

/** One search's hits over active and replaced memories, as the best `active` active ones and the best replaced ones. */
function byStatus<T extends { status: string }>(hits: Array<Hit<T>>, active: number): [Array<Hit<T>>, Array<Hit<T>>] {
  const current = hits.filter((h) => h.record.status === "active").slice(0, active);
  const replaced = hits.filter((h) => h.record.status === "superseded").slice(0, REPLACED_CANDIDATES);
  return [current, replaced];
}

/**
 * `onReach` hears what could change the answer later (reach.ts): a shared cache keeps it until something does.
 * A question that asks two things at once (questionParts.ts) is asked whole and part by part: each part's
 * best answer leads, then the whole question's list, then the parts' others, k in all.
 */
export async function recallMemories(
  ctx: EngineContext,
  params: RecallParams,
  scope: string,
  access: AccessTracker,
  onReach?: (reach: RecallReach) => void,
): Promise<RecallResult> {
  const parts = ctx.config.recall.splitQuestions ? questionParts(params.query) : [];
  if (parts.length < 2) return recallQuestion(ctx, params, scope, access, onReach, true);
  const whole = await recallQuestion(ctx, params, scope, access, undefined, false);
  const each: RecallResult[] = [];
  // The session's working memory leads the whole question's answer once; a part is asked for its own best answer.
  for (const part of parts) each.push(await recallQuestion(ctx, { ...params, query: part, sessionId: undefined }, scope, access, undefined, false));
  const answered = each.filter((r) => !r.usedFallback && r.memories.length > 0);
  // Several query vectors cannot be told to the cache's reach test: any change may change the answer.
  onReach?.({ open: true, ids: [], terms: [], vector: null, minCos: 1 });
  if (answered.length === 0 || whole.usedFallback) {
    if (!whole.usedFallback && whole.memories.length > 0) access.touch(whole.memories.map((m) => m.id), ctx.clock.now());
    return whole;
  }
  const k = params.k ?? ctx.config.recall.defaultK;
  const seen = new Set<string>();
  const memories: RecalledMemory[] = [];
  const take = (m: RecalledMemory | undefined): void => {
    if (m && !seen.has(m.id) && memories.length < k) {
      seen.add(m.id);
      memories.push(m);
    }
  };
  answered.map((r) => r.memories[0]).sort((a, b) => (b?.score ?? 0) - (a?.score ?? 0)).forEach(take);
  if (!whole.usedFallback) whole.memories.forEach(take);
  answered.flatMap((r) => r.memories.slice(1)).sort((a, b) => b.score - a.score).forEach(take);
  const conflicts = [...new Map([whole, ...answered].flatMap((r) => r.conflicts).map((c) => [c.ids.join(" "), c])).values()].filter((c) => c.ids.every((id) => seen.has(id)));
  access.touch(memories.map((m) => m.id), ctx.clock.now());
  return { query: params.query, scope, memories, conflicts, usedFallback: false, text: formatRecall(memories, conflicts, false) };
}

/**
 * What a question searches: its scope, types and layers (`filter`), and with replaced memories followed,
 * the same over active and replaced ones (`searched`, `widen` more hits): each store query has a fixed
 * cost (LanceDB ~3-5 ms however small the table), so two more queries per retriever were a third of recall.
 */
function filtersOf(ctx: EngineContext, params: RecallParams, scope: string): { filter: MemoryFilter; searched: MemoryFilter; widen: number } {
  const filter: MemoryFilter = { scope, statuses: ["active"] };
  if (params.types) filter.types = params.types;
  if (params.layers) filter.layers = params.layers;
  const lineage = ctx.config.recall.followReplacements;
  return { filter, searched: lineage ? { ...filter, statuses: ["active", "superseded"] } : filter, widen: lineage ? REPLACED_CANDIDATES : 0 };
}

/**
 * The question's word searches as recallQuestion asks them: full text over `searched` (`widen` more hits for
 * replaced memories), and the names it asks about over the active memories. The answer reads their hits; a
 * cache asks them again (foundByWords).
 */
function wordSearches(ctx: EngineContext, query: string, named: string[], filters: ReturnType<typeof filtersOf>): [Promise<Array<Hit<MemoryRecord>>>, Promise<Array<Hit<MemoryRecord>>>] {
  const { recall } = ctx.config;
  return [
    recall.candidateSources.includes("fullText") ? ctx.store.searchMemoriesByText(query, filters.searched, recall.textCandidates + filters.widen) : Promise.resolve([]),
    named.length > 0 ? ctx.store.searchMemoriesByEntities(named, filters.filter, recall.entityCandidates) : Promise.resolve([]),
  ];
}

/** The names a question asks about, when the entity retriever is on. */
function namedIn(ctx: EngineContext, query: string): string[] {
  return ctx.config.recall.candidateSources.includes("entity") ? entitiesIn(query) : [];
}

/**
 * The question's word searches asked again: the memories they return now. A cached answer stands against a
 * change that shares only words with it while these find nothing they did not find then (reach.ts).
 */
export async function foundByWords(ctx: EngineContext, params: RecallParams, scope: string): Promise<string[]> {
  const hits = await Promise.all(wordSearches(ctx, params.query, namedIn(ctx, params.query), filtersOf(ctx, params, scope)));
  return hits.flat().map((h) => h.record.id);
}

async function recallQuestion(
  ctx: EngineContext,
  params: RecallParams,
  scope: string,
  access: AccessTracker,
  onReach: ((reach: RecallReach) => void) | undefined,
  touch: boolean,
): Promise<RecallResult> {
  const now = ctx.clock.now();
  const k = params.k ?? ctx.config.recall.defaultK;
  const asked = ctx.reranker !== null && (ctx.reranker.kind === "cross-encoder" || ctx.config.recall.secondOpinionWeight > 0);
  if (asked) ctx.reranker?.prepare?.(params.query);
  // The word searches need no vector: they run while the model embeds the query (on its own threads).
  const queryVector = embedOne(ctx, params.query, "query");
  const filters = filtersOf(ctx, params, scope);
  const named = namedIn(ctx, params.query);
  const [byWords, byNames] = wordSearches(ctx, params.query, named, filters);
  // Settled here only so that a failed embedding leaves no search's rejection unhandled; each is awaited below.
  byWords.catch(() => undefined);
  byNames.catch(() => undefined);
  const q = queryFeatures(params.query, await queryVector, thresholdsOf(ctx));
  // Validity is read on the hits (model/lastKnown.ts): a task's last known state answers after its working lifetime.
  const taskTtlMs = taskLifetimeMs(ctx.config);
  const held = (hits: Array<Hit<MemoryRecord>>): Array<Hit<MemoryRecord>> => hits.filter((h) => stillHeld(h.record, now, taskTtlMs));
  const { filter, searched, widen } = filters;

  const sources = ctx.config.recall.candidateSources;
  const byVectorIn = (f: MemoryFilter, n: number): Promise<Array<Hit<MemoryRecord>>> =>
    q.cjk || !sources.includes("vector") ? Promise.resolve([]) : ctx.store.searchMemoriesByVector(q.vector, f, n);
  const byTextIn = (f: MemoryFilter, n: number): Promise<Array<Hit<MemoryRecord>>> =>
    sources.includes("fullText") ? ctx.store.searchMemoriesByText(params.query, f, n) : Promise.resolve([]);
  // The temporal and entity retrievers add candidates the query's vector and words rank too low.
  const askedSpan = sources.includes("temporal") ? askedTime(params.query, now) : null;
  const around = askedSpan ? saidAround(filter, askedSpan) : null;
  const none = Promise.resolve([] as Array<Hit<MemoryRecord>>);
  const vectorAsked = ctx.config.recall.vectorCandidates + widen;
  // The weakest vector candidate before validity is read: a new memory closer than it would join the search's hits.
  let vectorBar = q.cjk || !sources.includes("vector") ? null : -1;
  // Everything the word searches returned, before validity is read: what a cache asks them again against.
  const found: string[] = [];
  const foundBy = (hits: Array<Hit<MemoryRecord>>): Array<Hit<MemoryRecord>> => {
    found.push(...hits.map((h) => h.record.id));
    return hits;
  };
  const [vectorHits, textHits, byTimeVector, byTimeText, byEntity] = await Promise.all([
    byVectorIn(searched, vectorAsked)
      .then((hits) => {
        if (vectorBar !== null && hits.length >= vectorAsked) vectorBar = Math.min(...hits.map((h) => h.score));
        return hits;
      })
      .then(held),
    byWords.then(foundBy).then(held),
    around ? byVectorIn(around, ctx.config.recall.temporalCandidates).then(held) : none,
    around ? byTextIn(around, ctx.config.recall.temporalCandidates).then(held) : none,
    byNames.then(foundBy).then(held),
  ]);
  const [byVector, oldByVector] = byStatus(vectorHits, ctx.config.recall.vectorCandidates);
  const [byText, oldByText] = byStatus(textHits, ctx.config.recall.textCandidates);

  const scored: RecalledMemory[] = [];
  // Replaced memories' full-text scores are read on the same scale as the active ones'.
  const bestText = Math.max(bestScore(byText), bestScore(oldByText), bestScore(byTimeText));
  const withText = (c: Pooled<MemoryRecord>): { c: Pooled<MemoryRecord>; text: string } => ({ c, text: searchText(c.record) });
  // Entity hits carry an entity score, not a full-text one: they join as vector hits do, read by their vector and words.
  const candidates = pool([...byVector, ...byTimeVector, ...byEntity], [...byText, ...byTimeText], bestText).map(withText);
  const replaced = pool(oldByVector, oldByText, bestText);
  // Only replaced memories whose successor the query may see are read at all.
  const heads = replaced.length > 0 ? heldHeads(await currentHolders(ctx.store, replaced.map((c) => c.record), filter), now, taskTtlMs) : new Map<string, MemoryRecord>();
  const leading = replaced.filter((c) => heads.has(c.record.id)).map(withText);
  const symmetric = await symmetricOf(ctx, q, [...candidates, ...leading].map((x) => x.text));
  const read = ({ c, text }: { c: Pooled<MemoryRecord>; text: string }): Candidate => ({ c, parts: fuseRelevance(q, text, c.vector, c.fullText, ctx.config, symmetric.get(text), labelOf(c.record)) });
  const pooled = candidates.map(read);
  leadToCurrentHolders(pooled, leading.map(read), heads);
  const floor = ctx.config.recall.relevanceFloor;
  const standout = distinctBest(pooled.map((p) => p.parts), floor);
  // The symmetric Chinese reading finds a paraphrase when nothing else would; once the usual evidence
  // answers the question, it would only let weaker neighbours through.
  const answered = pooled.some((p) => p.parts.plainEvidence >= floor);
  const passing = withCompanions(pooled, pooled.filter(({ parts }, i) => (answered ? parts.plainEvidence : parts.evidence) >= floor || i === standout));
  const kindFavoured = favourAnswerKind(q.text, passing.map(({ c }) => c.record.content), await focusedRelevance(ctx, q, passing), ctx.config.recall.answerKindBonus);
  const relevance = withTimeAndNames(ctx, kindFavoured, passing.map(({ c }) => c.record), askedSpan, named);
  for (const [i, { c, parts }] of passing.entries()) {
    const whom = aboutWhomTheQueryAsks(c.record.content, q);
    if (whom === 0) continue;
    scored.push(toRecalled(ctx, c.record, (relevance[i] as number) * whom, now, access, parts.wordsOnly ? "full-text" : "fused"));
  }
  const fullBoost = new Map(scored.map((m) => [m, m.factors.accessBoost]));
  const boostOf = (m: RecalledMemory): number => fullBoost.get(m) ?? 0;
  countAccess(scored, boostOf, ctx.config);
  scored.sort(byRank);
  // A successor found through the memory it replaced is read by stage 2 in that memory's words too.
  const readAs = new Map(passing.map(({ c }) => [c.record.id, (c.via ?? c.record).content]));
  if (asked && scored.length > 0) await rerank(ctx, params.query, scored, boostOf, readAs);
  // Successors found through their predecessor's words are not pushed under first-hand memories: that sank the answer when the successor itself was the answer (lineageRecall.test.ts).

  if (ctx.config.recall.diversify) diversify(scored);
  const working = params.sessionId ? await workingMemory(ctx, q, scope, params.sessionId, now, k, access) : [];
  const workingIds = new Set(working.map((m) => m.id));
  const memories = [...working, ...withConflictPartners(scored.filter((m) => !workingIds.has(m.id)), k - working.length)];
  const conflicts = conflictsAmong(memories, scored);

  let usedFallback = false;
  let result = memories;
  if (memories.length === 0 && ctx.config.recall.fallbackToL0 && params.fallback !== false && !params.types && !params.layers) {
    result = await fallbackToTurns(ctx, q, scope, k, now);
    usedFallback = result.length > 0;
  }
  if (touch && !usedFallback && result.length > 0) access.touch(result.map((m) => m.id), now);
  onReach?.({
    open: around !== null || usedFallback || result.length === 0,
    ids: [...new Set([...candidates.map((x) => x.c.record.id), ...replaced.map((c) => c.record.id), ...[...heads.values()].map((h) => h.id)])],
    terms: queryTerms(q.tokens, named),
    vector: vectorBar === null ? null : q.vector,
    minCos: vectorBar ?? 1,
    found: [...new Set(found)],
  });
  return { query: params.query, scope, memories: result, conflicts, usedFallback, text: formatRecall(result, conflicts, usedFallback) };
}

/**
 * The temporal and entity retrievers' evidence blended into the fused relevance: how close the time
 * a candidate tells of is to the asked time (temporal.ts), and how much of what the query names it
 * names too (entityMatch.ts). A weighted mean, not a sum: a sum would be cut at 1 and lose the
 * difference between two candidates the other evidence already rates fully. Only asked when the
 * query names a time or a thing, and only reorders candidates that passed the floor on their own.
 */
function withTimeAndNames(ctx: EngineContext, relevance: number[], records: MemoryRecord[], asked: TimeSpan | null, named: string[]): number[] {
  const { temporalWeight, entityWeight } = ctx.config.recall;
  const time = asked && temporalWeight > 0 ? records.map((m) => closeness(m, asked)) : null;
  const names = named.length > 0 && entityWeight > 0 ? entityShare(named, records.map((m) => `${m.subject} ${searchText(m)}`)) : null;
  if (!time && !names) return relevance;
  const total = 1 + (time ? temporalWeight : 0) + (names ? entityWeight : 0);
  return relevance.map((r, i) => clamp01((r + temporalWeight * (time?.[i] ?? 0) + entityWeight * (names?.[i] ?? 0)) / total));
}

/** A Chinese query's Chinese candidates read as queries too, when the model has a symmetric reading (ModelProfile.cjkSymmetricLow). */
async function symmetricOf(ctx: EngineContext, q: QueryFeatures, texts: string[]): Promise<Map<string, Float32Array>> {
  if (!q.zh || q.cjk || q.model.cjkSymmetricLow === undefined) return new Map();
  return ctx.symmetric.of(texts.filter((t) => writtenInCjk(t) && mayReadSymmetric(q.text, t)));
}

/**
 * How far a successor's relevance moves from its own towards its predecessor's. Evidence read in
 * another memory's words is second-hand: the less the successor itself says about the question, the
 * more its rank rests on the predecessor's words alone, and the more a memory that answers in its own
 * words should win a near tie ("Where is the wiki hosted?": "the wiki is hosted on Fly" over "backups:
 * S3 → R2", reached through "the wiki's backups were hosted on S3"). A successor that itself reads
 * close to the question keeps nearly all of the lead ("哪家快递" → "快递从顺丰换成了京东").
 */
const SECOND_HAND = 0.85;

/**
 * A replaced memory that the query finds lends its evidence to the active memory that replaced it,
 * when that is stronger than the successor's own (lineage.ts): the successor joins the candidates
 * or is read by its predecessor's words. The replaced memory itself is never a candidate.
 */
/**
 * An addition and the statement it adds to answer the same question ("the shop takes cards" /
 * "the shop also takes cash" for "how can customers pay?"): when one passes the floor, the other
 * comes along, on its own relevance. The write path keeps the statement added to as the addition's
 * context (writer.ts addsTo); a memory whose context is another active memory's whole text was
 * written as its addition (a corrected memory, the other context kept, is no longer active).
 */
function withCompanions(pooled: Candidate[], passing: Candidate[]): Candidate[] {
  const passed = new Set(passing);
  const waiting = new Set(pooled.filter((p) => !passed.has(p)).map((p) => p.c.record.content));
  const best = (map: Map<string, number>, text: string, relevance: number): void => void map.set(text, Math.max(map.get(text) ?? 0, relevance));
  const passingContents = new Map<string, number>();
  const addedTo = new Map<string, number>();
  for (const p of passing) {
    best(passingContents, p.c.record.content, p.parts.relevance);
    const context = p.c.record.context;
    if (context !== null && waiting.has(context)) best(addedTo, context, p.parts.relevance);
  }
  const companions: Candidate[] = [];
  for (const p of pooled) {
    if (passed.has(p)) continue;
    const context = p.c.record.context;
    const partner = addedTo.get(p.c.record.content) ?? (context !== null && passingContents.has(context) ? (passingContents.get(context) ?? 0) : 0);
    // Ranked just behind the memory it came with, not at the bottom of the list where k would cut it off.
    if (partner > 0) companions.push({ ...p, parts: { ...p.parts, relevance: Math.max(p.parts.relevance, partner * COMPANION_SHARE) } });
  }
  return companions.length > 0 ? [...passing, ...companions] : passing;
}

/** A companion's relevance as a share of the memory it came with. */
const COMPANION_SHARE = 0.9;

function heldHeads(heads: Map<string, MemoryRecord>, now: number, taskTtlMs: number): Map<string, MemoryRecord> {
  return new Map([...heads].filter(([, head]) => stillHeld(head, now, taskTtlMs)));
}

function leadToCurrentHolders(pooled: Candidate[], replaced: Candidate[], heads: Map<string, MemoryRecord>): void {
  const at = new Map(pooled.map((p, i) => [p.c.record.id, i]));
  for (const old of replaced) {
    const head = heads.get(old.c.record.id);
    if (!head) continue;
    const i = at.get(head.id);
    const own = i === undefined ? 0 : (pooled[i] as Candidate).parts.relevance;
    const relevance = own + (old.parts.relevance - own) * SECOND_HAND;
    const inherited = { c: { record: head, vector: old.c.vector, fullText: old.c.fullText, via: old.c.record }, parts: { ...old.parts, relevance } };
    if (i === undefined) {
      at.set(head.id, pooled.length);
      pooled.push(inherited);
    } else if (inherited.parts.relevance > (pooled[i] as Candidate).parts.relevance) pooled[i] = inherited;
  }
}

/**
 * The candidates' relevance with part of their vector evidence read from the query without what
 * they all share (focus.ts): among memories about one thing, the attribute asked for decides.
 */
async function focusedRelevance(ctx: EngineContext, q: QueryFeatures, passing: Candidate[]): Promise<number[]> {
  const relevance = passing.map((p) => p.parts.relevance);
  const w = ctx.config.recall.focusWeight;
  if (w === 0 || q.cjk) return relevance;
  // A zero cosine is a candidate the model cannot read (fuseRelevance). A successor found through its
  // predecessor is read in the predecessor's words, as its vector is.
  const readable = passing.flatMap((p, i) => (p.parts.cosine !== 0 ? [i] : []));
  const head = [...readable].sort((a, b) => (relevance[b] as number) - (relevance[a] as number)).map((i) => searchText(passing[i]!.c.via ?? passing[i]!.c.record));
  const focused = focusedQuery(q.text, q.tokens, head);
  if (focused === null) return relevance;
  const fv = await embedOne(ctx, focused, "query");
  const f = ctx.config.recall.fusion;
  const share = f.vector / (f.vector + f.fullText + f.coverage || 1);
  const moved = refocus(
    readable.map((i) => relevance[i] as number),
    readable.map((i) => passing[i]!.parts.cosine),
    readable.map((i) => cosine(fv, passing[i]!.c.vector)),
    w * share,
    q.model.cosineHigh - q.model.cosineLow,
  );
  readable.forEach((i, j) => {
    relevance[i] = clamp01(moved[j] as number);
  });
  return relevance;
}

/** The subject a caller gave, when it names a thing (inferred subjects say who spoke). */
function labelOf(m: MemoryRecord): string | undefined {
  return m.source !== "extractor" && !isGenericSubject(m.subject) && !m.subject.startsWith("third-party:") ? m.subject : undefined;
}

/** How much of its relevance a fact about someone else keeps when the query does not name that person. */
const OTHER_PERSON_DISCOUNT = 0.85;

/** The question names a person the fact names ("what should I get Ines?" for "the user's sister Ines is vegan"). */
function namesSomeoneIn(content: string, q: QueryFeatures): boolean {
  for (const m of content.matchAll(/(?<=\S\s+)\p{Lu}[\p{Ll}'’-]+/gu)) {
    const words = contentTokens(m[0]);
    if (words.length > 0 && words.every((t) => q.tokens.has(t))) return true;
  }
  return false;
}

/** A question in the first person asks about the speaker or the speaker's own team: "which gym do I go to?", "我们用哪个打印服务？". */
const FIRST_PERSON = /\b(i|me|my|mine|we|us|our|ours)\b|我|咱/i;

/**
 * A fact about someone the speaker names by relation answers questions that name them: "my cousin
 * drives a Tesla" is no answer to "what car do I drive?", though it shares every other word, while
 * "what does my cousin drive?" finds it in full. A question in the first person that does not name
 * them asks about the speaker, so the fact is left out (0); any other question only ranks it lower.
 */
function aboutWhomTheQueryAsks(content: string, q: QueryFeatures): number {
  const party = thirdParty(content);
  if (party === null) return 1;
  const named = q.zh ? q.text.includes(party) : contentTokens(party).every((t) => q.tokens.has(t));
  if (named || namesSomeoneIn(content, q)) return 1;
  return FIRST_PERSON.test(q.text) ? 0 : OTHER_PERSON_DISCOUNT;
}

/** Stable re-order: candidates that add no source turn beyond better-ranked ones go to the back. */
function diversify(scored: RecalledMemory[]): void {
  const seen = new Set<string>();
  const fresh: RecalledMemory[] = [];
  const repeats: RecalledMemory[] = [];
  for (const m of scored) {
    const covered = m.sourceTurns.length > 0 && m.sourceTurns.every((t) => seen.has(t));
    (covered ? repeats : fresh).push(m);
    for (const t of m.sourceTurns) seen.add(t);
  }
  scored.splice(0, scored.length, ...fresh, ...repeats);
}

/**
 * Stage 2: the best fused candidates are rescored — a cross-encoder's score becomes their relevance,
 * a second embedding model's is blended into it. Past the time budget, or on an error, the fused
 * relevance stands (and says so).
 */
async function rerank(ctx: EngineContext, query: string, scored: RecalledMemory[], boostOf: (m: RecalledMemory) => number, readAs: Map<string, string>): Promise<void> {
  const reranker = ctx.reranker;
  if (!reranker) return;
  const head = scored.slice(0, ctx.config.recall.rerankCandidates);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const budget = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ctx.config.recall.rerankBudgetMs);
  });
  try {
    const scores = await Promise.race([reranker.score(query, head.map((m) => readAs.get(m.id) ?? m.content)), budget]);
    if (scores === "late") {
      ctx.logger.warn("reranker over its time budget; using fused relevance", { budgetMs: ctx.config.recall.rerankBudgetMs, reranker: reranker.id });
      return;
    }
    const blended = reranker.kind === "cross-encoder" ? scores : secondOpinion(head.map((m) => m.factors.relevance), scores, ctx.config.recall.secondOpinionWeight);
    head.forEach((m, i) => {
      const s = blended[i];
      if (s === null || s === undefined) return;
      m.factors.relevance = s;
      m.relevanceSource = reranker.kind;
    });
    countAccess(head, boostOf, ctx.config);
    // Rescored candidates stay ahead of those stage 2 did not see: their scores are not comparable.
    head.sort(byRank);
    scored.splice(0, head.length, ...head);
  } catch (err) {
    ctx.logger.warn("reranker failed; using fused relevance", { error: String(err), reranker: reranker.id });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A second embedding model's scores blended into the fused relevance of the candidates it read.
 * It only reorders those among themselves: their mean relevance is kept, so candidates it cannot
 * read (Chinese for an English model) neither gain nor lose against them by being unread.
 */
export function secondOpinion(relevance: number[], scores: Array<number | null>, w: number): Array<number | null> {
  const read = relevance.flatMap((r, i) => (typeof scores[i] === "number" ? [{ r, s: scores[i] as number }] : []));
  if (read.length === 0) return scores;
  const meanR = read.reduce((a, x) => a + x.r, 0) / read.length;
  const meanS = read.reduce((a, x) => a + x.s, 0) / read.length;
  return relevance.map((r, i) => {
    const s = scores[i];
    return typeof s === "number" ? clamp01((1 - w) * r + w * (s - meanS + meanR)) : null;
  });
}

/**
 * L1 working memory of the session (task state said within `write.taskStateTtlHours`, still valid),
 * newest first: offered before anything else whatever the query, because an agent in the middle of a
 * task needs where it stands. Older task state is no longer pushed first; it stays listed and recalled
 * on its relevance as the task's last known state (model/lastKnown.ts).
 */
async function workingMemory(ctx: EngineContext, q: QueryFeatures, scope: string, sessionId: string, now: number, k: number, access: AccessTracker): Promise<RecalledMemory[]> {
  const limit = Math.min(ctx.config.recall.workingMemoryItems, Math.ceil(k / 2));
  if (limit === 0) return [];
  const createdIn = { from: now - taskLifetimeMs(ctx.config), to: Number.MAX_SAFE_INTEGER };
  const items = await ctx.store.listMemories({ scope, statuses: ["active"], layers: ["L1"], sessionId, validAt: now, createdIn }, { limit });
  return items.map((m) => {
    const parts = fuseRelevance(q, searchText(m), new Float32Array(0), 0, ctx.config);
    // No vector is compared here (the item is offered whatever the query): its relevance is the words'.
    return toRecalled(ctx, m, parts.relevance, now, access, "full-text");
  });
}

function toRecalled(ctx: EngineContext, m: MemoryRecord, relevance: number, now: number, access: AccessTracker, source: "fused" | "full-text"): RecalledMemory {
  const factors = {
    relevance,
    confidence: m.confidence,
    timeDecay: timeDecay(m, now, ctx.config),
    accessBoost: accessBoost(m.accessCount + access.pendingCount(m.id), ctx.config),
  };
  return {
    id: m.id,
    layer: m.layer,
    type: m.type,
    subject: m.subject,
    content: m.content,
    confidence: m.confidence,
    score: finalScore(factors, ctx.config),
    factors,
    relevanceSource: source,
    createdAt: m.createdAt,
    confirmedAt: m.confirmedAt,
    validUntil: m.validUntil,
    sourceTurns: m.sourceTurns,
    sourceRefs: m.sourceRefs,
    conflictsWith: m.conflictsWith,
  };
}

/** Top k, but an unresolved conflict is shown with both sides: a partner that passed the floor displaces the weakest other item. */
function withConflictPartners(scored: RecalledMemory[], k: number): RecalledMemory[] {
  const top = scored.slice(0, k);
  const ids = new Set(top.map((m) => m.id));
  for (const m of [...top]) {
    for (const partnerId of m.conflictsWith) {
      if (ids.has(partnerId)) continue;
      const partner = scored.find((s) => s.id === partnerId);
      if (!partner) continue;
      if (top.length >= k) {
        const idx = findLastIndex(top, (t) => t.conflictsWith.length === 0 && t.id !== m.id);
        if (idx < 0) continue;
        ids.delete(top[idx]!.id);
        top.splice(idx, 1);
      }
      top.push(partner);
      ids.add(partner.id);
    }
  }
  return top.sort(byRank);
}

function findLastIndex<T>(xs: T[], pred: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (pred(xs[i] as T)) return i;
  return -1;
}

function conflictsAmong(memories: RecalledMemory[], scored: RecalledMemory[]): RecallConflict[] {
  const out: RecallConflict[] = [];
  const seen = new Set<string>();
  const inResult = new Set(memories.map((m) => m.id));
  for (const m of memories) {
    for (const other of m.conflictsWith) {
      const key = [m.id, other].sort().join("|");
      if (seen.has(key) || !inResult.has(other)) continue;
      seen.add(key);
      const partner = scored.find((s) => s.id === other);
      out.push({
        ids: [m.id, other],
        subject: m.subject ?? partner?.subject ?? "",
        reason: "contradicting statements made within the tie window with equal confidence",
      });
    }
  }
  return out;
}

/**
 * L0 fallback: raw turns, but never one whose distilled memories the engine decided against
 * (superseded, expired, archived, quarantined or forgotten), never a redacted one and never one
 * the guard would refuse or quarantine.
 */
async function fallbackToTurns(ctx: EngineContext, q: QueryFeatures, scope: string, k: number, now: number): Promise<RecalledMemory[]> {
  const filter = { scope, statuses: ["active" as const] };
  const [byVector, byText] = await Promise.all([
    q.cjk ? Promise.resolve([]) : ctx.store.searchTurnsByVector(q.vector, filter, ctx.config.recall.vectorCandidates),
    ctx.store.searchTurnsByText(q.text, filter, ctx.config.recall.textCandidates),
  ]);
  const candidates: Array<{ turn: TurnRecord; relevance: number; wordsOnly: boolean }> = [];
  for (const c of pool(byVector, byText)) {
    const parts = fuseRelevance(q, turnText(c.record), c.vector, c.fullText, ctx.config);
    if (parts.evidence >= ctx.config.recall.relevanceFloor) candidates.push({ turn: c.record, relevance: parts.relevance, wordsOnly: parts.wordsOnly });
  }
  const linked = await ctx.store.getMemories([...new Set(candidates.flatMap((c) => c.turn.memoryIds))]);
  const byId = new Map(linked.map((m) => [m.id, m]));
  const eligible = candidates.filter((c) =>
    !turnIsNoise(c.turn.user, ctx.config.write.rules) &&
    c.turn.memoryIds.every((id) => {
      const m = byId.get(id);
      return m !== undefined && m.status === "active" && (m.validUntil === null || m.validUntil > now);
    }),
  );
  eligible.sort((a, b) => b.relevance - a.relevance);
  // Turns logged by an older store were never judged by today's guard: ask it before returning one.
  const safe = await firstUnflagged(eligible, (c) => [c.turn.user, c.turn.assistant, c.turn.speaker, c.turn.ref], k);
  return safe.map(({ turn, relevance, wordsOnly }) => {
    const factors = { relevance, confidence: 0.5, timeDecay: 1, accessBoost: 0 };
    return {
      id: turn.id,
      layer: "L0" as const,
      type: null,
      subject: turn.speaker,
      content: bestPassage(turn, q),
      confidence: 0.5,
      score: finalScore(factors, ctx.config),
      factors,
      relevanceSource: wordsOnly ? ("full-text" as const) : ("fused" as const),
      createdAt: turn.at,
      confirmedAt: turn.at,
      validUntil: null,
      sourceTurns: [turn.id],
      sourceRefs: turn.ref ? [turn.ref] : [],
      conflictsWith: [],
    };
  });
}

/** A long turn is cut to the sentence that covers the query best, so the fallback keeps granularity. */
function bestPassage(turn: TurnRecord, q: QueryFeatures): string {
  const text = turnText(turn);
  if (text.length <= 300) return text;
  let best = text.slice(0, 300);
  let bestCov = -1;
  for (const s of splitSentences(turn.user)) {
    const cov = coverage(q.tokens, contentTokenSet(s));
    if (cov > bestCov) {
      bestCov = cov;
      best = s;
    }
  }
  return best;
}
