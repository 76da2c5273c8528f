import type { EngineConfig } from "../config.js";
import type { MemoryRecord, MemorySource, MemoryType } from "../model/memory.js";
import { unreadable, type Thresholds } from "../model/profiles.js";
import { hasCjk, isMostlyCjk } from "../text/cjk.js";
import { contentTokens, contentTokenSet, diceOf, lexicalSimilarity, tokenDifference } from "../text/tokens.js";
import { chineseNumeral, withDigits } from "../text/numerals.js";
import { cosine } from "../text/vector.js";
import { isGenericSubject } from "./classify.js";
import { announcesChange, boundSaid, labelThing, isAdditive, correctsEarlier, correctionReachHours, holdsValue, keepsPartAsBefore, keysDiffer, modifiersDiffer, subjectNamesSlot, numberedAttribute, boundedAttribute, quantityAttribute, oldValues, progressFrame, responsibilityReading, sameLeadingThing, sameSlot, saysIncluded, sharedOpening, slotTokens, taskLabel, taskLabelText, valueReplacedByPhrase, valueTokens, twoNamedThings, versionedSlot, vouchedWords, codeWords, withoutSpeaker, versionsNamed, versionsOfTwoThings } from "./slot.js";

export interface Candidate {
  content: string;
  type: MemoryType;
  subject: string;
  source: MemorySource;
  confidence: number;
  validUntil: number | null;
  vector: Float32Array;
  now: number;
  /** The values the statement says it replaces, read once per write (slot.ts oldValues); undefined: read them here. */
  oldValues?: string[][];
  /** The versioned names the statement gives, read once per write (slot.ts versionsNamed); undefined: read them here. */
  versions?: Map<string, string>;
  /** The clauses of a long message that announces a change, each embedded (writer.ts clausesToEmbed); absent otherwise. */
  clauses?: Array<{ content: string; vector: Float32Array }>;
}

/** A message that announces a change or carries an update cue: its clauses may be compared one by one. */
export function announcesUpdate(text: string): boolean {
  return UPDATE_CUE.test(text) || announcesChange(text);
}

/** How close each clause of a long message comes to the memory, in the message's order; empty for a short one. */
function clauseSimilarities(candidate: Candidate, existing: MemoryRecord, existingVector: Float32Array, t: Thresholds): number[] {
  return (candidate.clauses ?? []).map((c) => pairSimilarity(c, { content: existing.content, vector: existingVector }, t));
}

/**
 * How close a message comes to a memory on topic: the whole message, or its closest clause when the
 * message is long and says several things ("the countertop's going to be sintered stone in the end,
 * the designer says it handles heat, price is about the same" is, in its first clause, about the countertop).
 * Only topic tests read it; a restatement needs the whole message to match.
 */
function topicSimilarity(whole: number, clauses: number[]): number {
  return Math.max(whole, ...clauses);
}

/**
 * In a long message the additive word must sit in the clause about this memory or before it: "the worktop's
 * going to be oak after all, the fitter says the sink is fine as well" adds nothing to what the worktop is made of.
 */
function addsTo(candidate: Candidate, clauses: number[]): boolean {
  if (clauses.length < 2) return true;
  const closest = clauses.indexOf(Math.max(...clauses));
  // An additive opening frames what follows it ("in addition to cheques, …", "we hired another tutor: …"); a later remark does not.
  return (candidate.clauses ?? []).slice(0, closest + 1).some((c) => isAdditive(c.content));
}

export type Relation =
  | { kind: "duplicate"; existing: MemoryRecord }
  /**
   * namedValue: the new statement named the value it replaces ("from A to B"). elliptical: it is a
   * correction that names only the new value, so what it is about lives in the statement it corrects.
   * continuesTask: the next status line of a task the classifier read as another type; it is task state.
   */
  | { kind: "supersedes"; existing: MemoryRecord; reason: string; namedValue?: boolean; elliptical?: boolean; continuesTask?: boolean }
  | { kind: "superseded_by"; existing: MemoryRecord; reason: string }
  | { kind: "conflict"; existing: MemoryRecord; reason: string };

/**
 * A cue that the speaker is correcting or updating an earlier statement without naming its value ("now", "actually", "现在"),
 * or says from when the new value holds: "effective the 3rd, refunds take five days", "as of Q3 the rota is weekly",
 * "from Monday the lab opens at 8", "自下月 1 日起，门禁卡按季度更换",
 * or announces that something changed: "change of plan: the offsite is in Porto", "报销流程有调整：…".
 * "A new …" introduces a thing ("the van has a new roof rack"); "the new …" and "new …:" give a value.
 * "Now that …" gives a reason ("now that the grant came through, …"), not a time.
 * A return to an earlier value is a new value too: "the shuttle stops at the east gate again", "the limit is back to
 * 10 per day", "门禁重新由物业管理" (examples in no case file).
 */
const UPDATE_CUE =
  /\b(now(?!\s+that\b)|instead|anymore|actually|going forward|from now on|these days|nowadays|updated|(?<!\ban?\s)new|never ?mind|scratch that|forget (it|that))\b|\b(starting|effective|as of|beginning)\s+(from\s+)?(today|tomorrow|tonight|next|this|on|the\s+\d|\d|mon|tue|wed|thu|fri|sat|sun|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|q[1-4])|\bfrom\s+(the\s+)?\d{1,2}(st|nd|rd|th)?\s+(on|onwards?)\b|(?:^|[,;.:!?]\s*|\b(?:and|but|so)\s+)from\s+(today|tomorrow|tonight|next\s+\w+|this\s+(?:week|month|sprint|quarter)|mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\b(?!['’])|\b(change of plans?|plans? (have |has )?changed|there'?s been a change)\b|有(变化|变动|调整)|现在|目前|如今|(?:从|自)\s*(?:今天|现在|本周|下周|\d{1,4}\s*[年月日号]|[明后本下]|周[一二三四五六日天]|星期|[一二三四五六七八九十]+月)[^，。,；;]{0,10}?(?:开始|起)|(?:下|本|这)(?:周|个?月|礼拜|星期)[一二三四五六日天]?(?:一)?(?:开始|起)|最新|新的|算了|还是|不.了|重新|\bagain\b|\bback\s+(?:to|on)\b/i;

/**
 * A clause that gives the reason for a statement says why, not what changed: its "new" or "now" is no cue for the
 * statement ("the lab runs at 20 C because the new HVAC can hold it", "staff badges open the side door now that the
 * new reader is in" — examples in no case file).
 */
const REASON_CLAUSE = /[,;]?\s*\b(?:now\s+that|because|given\s+that|seeing\s+(?:as|that))\b[^.;!?]*/gi;

/**
 * An event whose consequence says what holds from now on is also that new value: "the lift was fixed on Monday, so
 * deliveries use the rear door again", "配电箱昨天修好了，所以现在又走原来的线路" (examples in no case file).
 */
const CONSEQUENCE = /(?:[,;，；]\s*|\s)(?:so|which\s+means|that\s+means|hence)\s+(.+)$|(?:所以|因此|于是)(.+)$/isu;

function consequenceHoldsNow(text: string): boolean {
  const m = CONSEQUENCE.exec(text);
  const then = m?.[1] ?? m?.[2];
  return then !== undefined && UPDATE_CUE.test(then);
}

function withoutReason(text: string): string {
  return text.replace(REASON_CLAUSE, "");
}

const NEGATION = /\b(not|never|no longer|don't|doesn't|isn't|aren't|won't|stop|stopped|instead of)\b|不|别|没有|停止|不再/i;

/**
 * Similarity that means something for this pair: cosine of the embeddings, or lexical overlap of
 * words when the model cannot read either side (CJK with an English model).
 */
export function pairSimilarity(a: { content: string; vector: Float32Array }, b: { content: string; vector: Float32Array }, t: Thresholds): number {
  if (unreadable(a.content, t) || unreadable(b.content, t)) return lexicalSimilarity(a.content, b.content);
  // Chinese pairs sit closer in E5's space than English ones: stretched away from 1, one set of thresholds serves both.
  const stretch = isMostlyCjk(a.content) && isMostlyCjk(b.content) ? t.cjkStretch : 1;
  return 1 - (1 - cosine(a.vector, b.vector)) * stretch;
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
  return NEGATION.test(a) !== NEGATION.test(b) || numbersMoved(a, b) || dropsNumber(a, b) || dropsNumber(b, a) || identifiersDiffer(a, b);
}

/**
 * One side holds a number the other does not: "11 of 14 ported" → "done, all 14 ported" says something
 * else though every other word is filler ("deploys to 3 regions" / "deploys to all regions").
 */
function dropsNumber(a: string, b: string): boolean {
  const held = new Set(numbersIn(b));
  return numbersIn(a).some((n) => !held.has(n));
}

/**
 * Code-like values compared whole: one character is a different host, branch or version, though
 * the word pieces match ("cache-east-1.lan" / "cache-east-2.lan", "release/v3.a" / "release/v3.b").
 */
function identifiersDiffer(a: string, b: string): boolean {
  const ia = identifiersIn(a);
  const ib = identifiersIn(b);
  return [...ia].some((w) => !ib.has(w)) && [...ib].some((w) => !ia.has(w));
}

function identifiersIn(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:[-_.:/@#][\p{L}\p{N}]+)+/gu) ?? [];
  return new Set(words);
}

/**
 * As many numbers, in another order or with one replaced: a count moved on even when the set of
 * numbers did not change ("14/20 seats sold" → "20/20 seats sold", "第 2 轮共 3 轮" → "第 3 轮共 3 轮").
 */
function numbersMoved(a: string, b: string): boolean {
  const na = numbersIn(a);
  const nb = numbersIn(b);
  return na.length > 0 && na.length === nb.length && na.join(" ") !== nb.join(" ");
}

/**
 * A number the existing memory does not hold: the statement says more than it, so dropping it as a
 * restatement would lose that ("the timeout went from 20s to 45s" next to "the timeout is 20s";
 * "保留 7 天，周末 14 天" next to "保留 7 天").
 */
function addsNumber(candidate: string, existing: string): boolean {
  const held = new Set(numbersIn(existing));
  return numbersIn(candidate).some((n) => !held.has(n));
}

/** Numbers however written: "sixty-two of 112" holds 62 as "62 of 112" does. */
function numbersIn(text: string): string[] {
  return withDigits(text).match(/\d+(?:[.,]\d+)*/g) ?? [];
}

/** The new statement names a value the existing memory holds ("from A to B", "no longer A", "从A换成B"), and does not restate the new one there. */
export function replacesNamedValue(candidate: string, existing: string, olds: string[][] = oldValues(candidate)): boolean {
  if (olds.length === 0) return false;
  const held = contentTokenSet(existing);
  // Across languages only numbers are spelled the same: "不再是10分钟" names the "10 minutes" of an English memory.
  // Across languages only what is spelled the same in both can be named: numbers and Latin names ("不再是10分钟"
  // names the "10 minutes" of an English memory, "从 Frankfurt 迁到了新加坡" its Frankfurt). Mixed text
  // ("从 MySQL 迁到了 Redis") is still Chinese: only a side without any Chinese is the other language.
  const across = hasCjk(candidate) !== hasCjk(existing);
  // A value named with its head noun ("the Friday slot got cancelled") names the value alone too: a memory that
  // holds "on Fridays" holds it, though it never says "slot".
  // A code opening the phrase owns what follows ("the FL-3 hydraulic pump was swapped"): it is no value named.
  const codes = codeWords(candidate);
  const values = new Set([...valueTokens(candidate)].filter((t) => !codes.has(t)));
  const bare = olds.map((v) => v.filter((t) => values.has(t))).filter((v, i) => v.length > 0 && v.length < (olds[i] as string[]).length);
  const named = across ? olds.map(spelledAlike) : [...olds, ...bare];
  return named.some((v) => holdsValue(held, v)) && (!holdsValue(held, newValueTokens(candidate, olds)) || newVersionUnsaid(candidate, existing));
}

/**
 * A dotted version the statement names that the memory does not: words split a version into parts that
 * other words may hold ("v3.1" into "v3", "1"; a memory about "Gate-1" holds "1"), so a memory that holds
 * the parts may still not say the new version. Examples, in no case file: "从 v3.0 升到 v3.1 了" against
 * "Gate-1 readers run v3.0"; "bumped from 5.2 to 5.4" against "the 4 kiosks run 5.2".
 */
function newVersionUnsaid(candidate: string, existing: string): boolean {
  const versions = (t: string): string[] => [...t.toLowerCase().matchAll(/(?<![\w.])v?\d+(?:\.\d+)+(?![\w.]*\d)/g)].map((m) => m[0].replace(/^v/, ""));
  const said = new Set(versions(existing));
  return versions(candidate).some((v) => !said.has(v));
}

/** The part of a value phrase another language spells the same: its numbers ("5 min" → 5), else its Latin words. */
function spelledAlike(value: string[]): string[] {
  const numbers = value.filter((t) => /\d/.test(t));
  return numbers.length > 0 ? numbers : value.filter((t) => !hasCjk(t));
}


/** Words that introduce a value as where a change started: "from the", "switched off", "把", "从", "由". */
const ORIGIN_BEFORE = /(?:\bfrom|\boff(?: of)?|[把从由])\s*(?:the\s+|a\s+|an\s+|our\s+|old\s+|原来的|之前的)?$/u;

/** What is new in a statement that names its old value: its value tokens minus the old ones. */
function newValueTokens(candidate: string, olds: string[][]): string[] {
  const old = new Set(olds.flat());
  // Where the old value is brought in as the origin ("from A", "把 A", "从 A"), a value named before it names what
  // changed, not what it became: "导航 SDK 把 Google Maps 换成了…" keeps "SDK" out. Elsewhere the new value may
  // come first ("B instead of A", "B，而不是 A").
  const lower = candidate.toLowerCase();
  const at = (t: string): number => lower.indexOf(t);
  const firstOld = Math.min(...[...old].map(at).filter((i) => i >= 0));
  // An old value not found as written (a numeral read as digits) places nothing: every other value counts as new.
  const asOrigin = Number.isFinite(firstOld) && ORIGIN_BEFORE.test(lower.slice(0, firstOld));
  return [...valueTokens(candidate)].filter((t) => !old.has(t) && !(asOrigin && at(t) >= 0 && at(t) < firstOld));
}

/**
 * Task state of one task is one slot: a status line's label ("Data import: …") named by the other
 * line too, the same thing named first (slot.ts sameLeadingThing), or a count against the same total
 * with a shared frame ("4 of 9 services" / "7 of 9 services"). When the two are close in meaning
 * (topicClose), one shared frame word is enough for counts against the same total, however the rest
 * is worded ("Invoice run: 120 of 400 sent" / "we're at two hundred of the 400 invoices now") —
 * unless they name two items of a series ("wave 1" / "wave 2").
 */
export function sameTask(a: string, b: string, frameSimilarity: number, topicClose = false, veryClose = false): boolean {
  const ta = contentTokenSet(a);
  const tb = contentTokenSet(b);
  const la = taskLabel(a);
  const lb = taskLabel(b);
  if (la && lb && partsDiffer(a, b)) return false;
  if ((la && la.every((t) => tb.has(t))) || (lb && lb.every((t) => ta.has(t)))) return true;
  // A label that ends in a verb of state names its thing and how it stands; against a label with no such verb
  // ("Checkout redesign milestone: 3 of 4" / "Checkout redesign rolled back: …") its thing is the task. Two such
  // verbs ("Photos uploaded: …" / "Photos tagged: …") name two tasks.
  const [sa, sb] = [labelThing(a), labelThing(b)];
  const stated = sa && !sb ? { thing: sa, label: lb } : sb && !sa ? { thing: sb, label: la } : null;
  if (stated?.label && stated.thing.every((t) => stated.label?.includes(t))) return true;
  if (la && lb && !labelsDiffer(a, b)) return true;
  // Two status lines labelled with two different tasks are two tasks, however alike the rest ("Frontend tests: 40 of 50" / "Backend tests: 30 of 50").
  // Across languages labels share no word: close in meaning, with the same numbers in the label and the same total, they
  // name one task ("Season 1 edits: 4/10" / "第一季剪辑：7/10 集").
  if (la && lb) return sameTaskAcrossLanguages(a, b, topicClose);
  if (sameLeadingThing(a, b)) return true;
  if (seriesDiffer(a, b)) return false;
  if (otherTaskNamed(a, b) || otherTaskNamed(b, a)) return false;
  // Two status reports as close in meaning as a restatement, on no two items of a series, report on one task ("瓷砖铺完两个房间" / "砖一共贴完四个房间了").
  if (veryClose) return true;
  if (sameTaskAcrossLanguages(a, b, topicClose)) return true;
  const pa = progressFrame(a);
  const pb = progressFrame(b);
  if (pa === null || pb === null || pa.total !== pb.total) return false;
  return diceOf(pa.frame, pb.frame) >= frameSimilarity || (topicClose && [...pa.frame].some((t) => pb.frame.has(t)));
}

/**
 * A labelled line and a line that names another task first: none of the label's head words (before "at", "in",
 * "for", "on") is in the other line, which opens with words of its own. Where both happen is no task: "Roof
 * survey at Depot 4: 30%" / "Depot 4 gutter repair is 2 of 6 bays" (examples in no case file).
 */
function otherTaskNamed(labelled: string, other: string): boolean {
  const label = taskLabelText(labelled);
  // Across languages no word is shared; against the same total the count itself names the task.
  if (label === null || hasCjk(labelled) !== hasCjk(other)) return false;
  const [pa, pb] = [progressFrame(labelled), progressFrame(other)];
  if (pa !== null && pb !== null && pa.total === pb.total) return false;
  const head = contentTokens(label.split(/\s+(?:at|in|for|on|@)\s+/i)[0] ?? "").filter((t) => !/^\d+$/.test(t));
  const words = contentTokenSet(other);
  if (head.length === 0 || head.some((t) => words.has(t))) return false;
  const labelWords = contentTokenSet(label);
  const opening = contentTokens(withoutSpeaker(other).split(/\d/)[0] ?? "");
  return opening.some((t) => !labelWords.has(t) && !STATUS_WORDS.has(t));
}

/** Words of a status line that say it is one, not which task it is about. */
const STATUS_WORDS = new Set(["progress", "status", "update", "done", "complete", "completed", "finished", "now", "so", "far", "进度", "状态", "更新", "完成"].flatMap((w) => [w, ...contentTokens(w)]));

/**
 * Two lines under one label about two parts of the task: the same noun after a different word on each side
 * ("Move: the blue room packed" / "Move: the green room half packed"). Each part's state stands until that part
 * moves on; parts told apart only by a number are items of a series, judged as before.
 */
function partsDiffer(a: string, b: string): boolean {
  if (seriesDiffer(a, b)) return false;
  const body = (text: string) => withDigits(text.replace(/^[^:：]*[:：]/, "")).trim();
  const [x, y] = [body(a), body(b)];
  if (hasCjk(x) && hasCjk(y)) return cjkPartsDiffer(x, y);
  if (VERB_OPENING.test(x) || VERB_OPENING.test(y)) return false;
  // The part is the noun phrase a line opens with: a noun shared further on is what is done to it.
  const opening = (text: string) => contentTokens(text).slice(0, 4).join(" ");
  // Against the other whole line too: a line that names the other's part as well reports on the whole task.
  return modifiersDiffer(opening(x), opening(y)) && modifiersDiffer(opening(x), y) && modifiersDiffer(x, opening(y));
}

/**
 * A line that opens with what was done says where the whole task stands, not which part: a past verb before its
 * object or preposition ("Loft: insulated the eaves", "Audit: stopped at invoice 4,000"). A word in -ed before
 * a noun is a part's name ("the raised bed").
 */
const VERB_OPENING = /^\s*\p{L}{3,}ed\s+(?:the|a|an|at|on|in|to|for|with|by|up|out|off|down|back|from|\d)\b/iu;

/** Chinese lines that open with a different word before the same noun ("梅洛地块…" / "霞多丽地块…"). */
function cjkPartsDiffer(x: string, y: string): boolean {
  for (let i = 1; i <= 4; i++) {
    for (let j = 1; j <= 4; j++) {
      const [mx, my] = [x.slice(0, i), y.slice(0, j)];
      // One side's word inside the other ("今天已" / "已") is no other part; a line that names the other's part too
      // ("仓库模块完了，财务模块还没开始" / "财务模块也完了") reports on the whole task.
      // Two words that end alike ("设计稿已" / "前端已") split a shared verb phrase ("已完成"), not two parts before a noun.
      if (mx.at(-1) === my.at(-1) || mx.includes(my) || my.includes(mx) || y.includes(mx) || x.includes(my) || !/^[\u4e00-\u9fff]+$/u.test(mx + my)) continue;
      const head = /^[\u4e00-\u9fff]{2,}/u.exec(x.slice(i))?.[0] ?? "";
      if (head.length >= 2 && y.slice(j).startsWith(head.slice(0, 2))) return true;
    }
  }
  return false;
}

/**
 * Across languages two progress reports share no word: close in meaning, with the same total and the same other
 * numbers — the item of a series the task is, however written ("Part 2" / "第二部分") — they report on one task.
 */
function sameTaskAcrossLanguages(a: string, b: string, topicClose: boolean): boolean {
  if (!topicClose || hasCjk(a) === hasCjk(b)) return false;
  const pa = progressFrame(a);
  const pb = progressFrame(b);
  return pa !== null && pb !== null && pa.total === pb.total && itemNumbers(a, pa.total) === itemNumbers(b, pb.total);
}

/** The numbers of a progress report that are neither its count nor its total; an ordinal is a number ("第二章" is chapter 2). */
function itemNumbers(text: string, total: string): string {
  const ordinals = text.replace(/第([零一二两三四五六七八九十百]+)/g, (_m, n: string) => `第${chineseNumeral(n) ?? n}`);
  let rest = withDigits(ordinals).replace(/\d+\s*(?:\/|／|of|out of)\s*(?:the\s+)?\d+/gi, " ");
  // A count in the unit of the total is the count however placed ("48 份总谱里扫了 10 份", "40 tables planned, 12 tables moved").
  const unit = new RegExp(String.raw`(?<!\d)${total}\s*([\u4e00-\u9fff]|[a-z]+)`, "iu").exec(rest)?.[1];
  if (unit) rest = rest.replace(new RegExp(String.raw`\d+\s*${unit}`, "giu"), " ");
  return (rest.match(/\d+/g) ?? []).filter((n) => n !== total).join(",");
}

/** Two status lines labelled with tasks neither of which the other names. */
export function labelsDiffer(a: string, b: string): boolean {
  const la = taskLabel(a);
  const lb = taskLabel(b);
  if (!la || !lb) return false;
  // A Chinese label with a modifier more is the same task ("年中盘点" / "盘点"): its characters hold the other's in order.
  const ca = cjkLabel(a);
  const cb = cjkLabel(b);
  if (ca && cb && (holdsInOrder(ca, cb) || holdsInOrder(cb, ca))) return false;
  const ta = contentTokenSet(a);
  const tb = contentTokenSet(b);
  return !la.every((t) => tb.has(t)) && !lb.every((t) => ta.has(t));
}

/** The Chinese label before a colon, without a word for its progress ("盘点进度" → "盘点"). */
function cjkLabel(text: string): string | null {
  const label = taskLabelText(text);
  return label !== null && /^[\u4e00-\u9fff]{2,16}$/u.test(label) ? label.replace(/(?:进度|进展|状态|情况)$/u, "") : null;
}

function holdsInOrder(longer: string, shorter: string): boolean {
  if (shorter.length < 2 || shorter.length > longer.length) return false;
  let i = 0;
  for (const ch of longer) if (ch === shorter[i]) i++;
  return i === shorter.length;
}

/** Both name an item of one series by number, and the numbers differ: "wave 1" / "wave 2", "第一期" / "第二期", "Q3" / "Q4". */
function seriesDiffer(a: string, b: string): boolean {
  const sa = seriesItems(a);
  const sb = seriesItems(b);
  return [...sa].some(([word, n]) => sb.has(word) && sb.get(word) !== n && !(countsTo(a, word) && countsTo(b, word)));
}

/**
 * An ordinal counted against a total in its own unit is how far the count got, not an item of a series:
 * "做到第7批了，一共12批", "第5轮打完，共8轮" (examples in no case file) report one task at two points.
 */
function countsTo(text: string, unit: string): boolean {
  const total = progressFrame(text)?.total;
  return total !== undefined && total !== "" && new RegExp(String.raw`(?:共|一共|总共|总计)\s*${total}\s*${unit}`, "u").test(withDigits(text));
}

function seriesItems(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of withDigits(text).matchAll(/\b([A-Za-z]+)[ -]?(\d+)\b(?!\s*(?:of|out of)\s+(?:the\s+)?\d|\s*[/%])|第\s*(\d+)\s*([期批轮阶段])/gu)) {
    if (m[1] !== undefined) out.set(m[1].toLowerCase(), m[2] as string);
    else out.set(m[4] as string, m[3] as string);
  }
  return out;
}

/**
 * How a new statement relates to an existing active memory of the same scope, or null when they are
 * unrelated (both stay). In order:
 * - a restatement (close, no changed value) → duplicate;
 * - events never contradict (they are history); different explicit subjects are different things;
 * - a statement that names the value it replaces → supersedes the memory holding it, even inside
 *   the tie window (it says what it replaces, so there is nothing to tie);
 * - an addition ("also", "另外") never replaces;
 * - task state of the same task → newer replaces;
 * - a bounded statement (valid_until) never replaces a standing one;
 * - same slot with a different value (only values differ), or a near-restatement with a changed
 *   value, or the same slot-ish topic with an update cue → newer wins, and inside the tie window
 *   higher confidence wins and equal confidence is a reported conflict.
 * Sharing a subject is not enough: ten facts about one API are ten attributes.
 */
export function relate(candidate: Candidate, existing: MemoryRecord, existingVector: Float32Array, config: EngineConfig, t: Thresholds): Relation | null {
  const w = config.write;
  const sim = pairSimilarity({ content: candidate.content, vector: candidate.vector }, { content: existing.content, vector: existingVector }, t);
  const lexical = unreadable(candidate.content, t) || unreadable(existing.content, t);
  const clauses = clauseSimilarities(candidate, existing, existingVector, t);
  const changed = valueChanged(candidate.content, existing.content);
  const subjectsSpecific = specificSubject(candidate.subject, candidate.source) && specificSubject(existing.subject, existing.source);
  if (subjectsSpecific && !sameSubject(candidate.subject, existing.subject)) return null;

  const dedupAt = lexical ? Math.min(t.dedupSimilarity, w.dedupSimilarityLexical) : t.dedupSimilarity;
  const sameType = candidate.type === existing.type;
  const namesOld = replacesNamedValue(candidate.content, existing.content, candidate.oldValues);
  if (sameType && !changed && !namesOld && !addsNumber(candidate.content, existing.content) && sim >= dedupAt) return { kind: "duplicate", existing };

  // A task's last status ("Label: shipped", "Label: all done") is often read as a fact or an event; it is still that task's next state.
  // A status line that only says more ("Q1 done" → "Q1 and Q2 done") is still the next state of its task.
  const topicClose = lexical ? lexicalSimilarity(candidate.content, existing.content) >= w.lexicalTopicWithCue : sim >= t.namedValueTopic;
  // Only two status reports may be judged one task by closeness alone.
  const bothTasks = candidate.type === "task_state" && existing.type === "task_state";
  const veryClose = bothTasks && !lexical && sim >= t.topicSimilarity;
  const saysMore = changed || tokenDifference(candidate.content, existing.content).onlyA.length > 0 || addsNumber(candidate.content, existing.content);
  // A count against the task's total is a status however it is worded ("all 30 crates are in the van, move done").
  if (existing.type === "task_state" && saysMore && (taskLabel(candidate.content) !== null || progressFrame(candidate.content) !== null) && sameTask(candidate.content, existing.content, w.taskFrameSimilarity, topicClose, veryClose)) {
    return { kind: "supersedes", existing, reason: "a newer status of that task", continuesTask: candidate.type !== "task_state" };
  }
  // The other way round: the existing status line ("Archive scan: 3,100 files done") was read as a fact.
  if (candidate.type === "task_state" && existing.type !== "task_state" && saysMore && (taskLabel(existing.content) !== null || progressFrame(existing.content) !== null) && sameTask(candidate.content, existing.content, w.taskFrameSimilarity, topicClose, veryClose)) {
    return { kind: "supersedes", existing, reason: "a newer status of that task" };
  }
  // Events are history and never contradict one another; an event that announces a change ("the clinic moved to
  // Elm Street on Monday", "上周把报销审批改成线上了") is also the new value of the standing memory it changes.
  if (existing.type === "event" || (candidate.type === "event" && !announcesChange(candidate.content) && !consequenceHoldsNow(candidate.content))) return null;
  if (candidate.type === "task_state" && existing.type === "task_state" && !changed && saysMore && sameTask(candidate.content, existing.content, w.taskFrameSimilarity, topicClose, veryClose)) {
    return { kind: "supersedes", existing, reason: "a newer status of that task" };
  }
  // A correction that says when the corrected words were said reaches back that far; past two days ("之前", "earlier")
  // the statement it corrects must be on its topic, not merely the closest one.
  const gap = candidate.now - existing.confirmedAt;
  const reachMs = correctionReachHours(candidate.content) * 3_600_000;
  const onTopic =
    gap <= Math.max(w.correctionWindowMs, Math.min(reachMs, 48 * 3_600_000))
      ? sim >= (lexical ? w.correctionSimilarityLexical : t.namedValueTopic)
      : lexical
        ? lexicalSimilarity(candidate.content, existing.content) >= w.lexicalTopicWithCue
        : topicSimilarity(sim, clauses) >= t.topicSimilarity;
  if (correctsEarlier(candidate.content) && gap <= Math.max(w.correctionWindowMs, reachMs) && onTopic) {
    return { kind: "supersedes", existing, reason: "corrects what was just said", namedValue: true, elliptical: true };
  }
  if (namesOld && (sim >= (lexical ? 0 : t.namedValueTopic) || lexicalSimilarity(candidate.content, existing.content) > 0)) {
    return { kind: "supersedes", existing, reason: "names the value it replaces", namedValue: true };
  }
  // A statement that vouches for part of the earlier state ("same ward as before") continues it: replacing the
  // memory would lose the part it vouches for, which it does not restate. Only a value it names is replaced; when
  // the vouching may be about another memory ("A 弃用了，现在走 B，C 不变"), both are kept unless A is named.
  // The part vouched for is named ("时间不变"): a memory that holds none of its words is another part, which the
  // statement may change ("训练地点换到…，时间不变" replaces where, keeps when).
  if (keepsPartAsBefore(candidate.content)) {
    const vouched = vouchedWords(candidate.content);
    const held = contentTokenSet(existing.content);
    if (vouched.size === 0 || [...vouched].some((t) => held.has(t))) return null;
  }
  // A hand-over names the person who held the role too ("Tomas moved teams; the release manager is now Greta"):
  // no word is only the older statement's, yet the holder changed.
  const responsible = responsibilityReading(candidate.content, existing.content);
  if (!changed && (responsible === null || responsible === "two things")) return null;
  if (responsible === "two things" || versionsOfTwoThings(candidate.content, existing.content) || twoNamedThings(candidate.content, existing.content)) return null;
  if (!sameType) {
    // A change announced in so many words ("switched", "换成") crosses a classifier's type guess; nothing else does.
    // A limit is not replaced by a plain value across types: a rule's minimum or maximum stays when a fact says
    // what is used now ("at least iOS 15 is supported" / "the test phones moved to iOS 17").
    const announced =
      (announcesChange(candidate.content) || consequenceHoldsNow(candidate.content)) &&
      !isAdditive(candidate.content) &&
      sharesAttribute(candidate.content, existing.content, thingOf(candidate, existing)) &&
      (boundSaid(existing.content) === "none" || boundSaid(candidate.content) === boundSaid(existing.content));
    const close = topicSimilarity(sim, clauses) >= (lexical ? w.topicSimilarityCjk : t.topicSimilarity) || lexicalSimilarity(candidate.content, existing.content) >= w.lexicalTopicWithCue;
    // A new limit of the same kind for the same thing, said as holding now ("… so the crane's max load is now 12 t"),
    // crosses a type guess too: the bound names the attribute.
    const bound = UPDATE_CUE.test(candidate.content) ? boundedAttribute(candidate.content, existing.content) : null;
    if (bound && close) return { kind: "supersedes", existing, reason: `same bound (${bound.common.join(" ")}), new value` };
    return announced && close ? { kind: "supersedes", existing, reason: `same topic (similarity ${sim.toFixed(2)}), announced as a change` } : null;
  }
  // Progress goes on: "the tiles are done too" is the next state of the renovation, not a second task.
  if (candidate.type === "task_state" && sameTask(candidate.content, existing.content, w.taskFrameSimilarity, topicClose, veryClose)) {
    return { kind: "supersedes", existing, reason: "a newer status of that task" };
  }
  if (isAdditive(candidate.content) && addsTo(candidate, clauses)) return null;
  if (bothTasks && labelsDiffer(candidate.content, existing.content)) return null;
  // A bound said of one and not the other is two plans. Two states of one task differ in bounds as a matter of
  // course ("load test: running until tonight", then "load test: done").
  if (!bothTasks && (candidate.validUntil === null) !== (existing.validUntil === null)) return null;
  if (keysDiffer(candidate.content, existing.content)) return null;

  // A version is a value of the name it follows; a status line's number is more often an item of a series ("sprint 14").
  const versioned = !bothTasks && (lexical || sim >= t.namedValueTopic) ? versionedSlot(candidate.content, existing.content) : null;
  // A quantity said of two people (the user's phone plan, a friend's) is two things.
  const twoPeople = candidate.subject !== existing.subject && [candidate.subject, existing.subject].some((x) => x.startsWith("third-party:"));
  const quantity = twoPeople ? null : (numberedAttribute(candidate.content, existing.content) ?? boundedAttribute(candidate.content, existing.content) ?? quantityAttribute(candidate.content, existing.content));
  const slot = sameSlot(candidate.content, existing.content) ?? quantity ?? versioned ?? responsible ?? (subjectsSpecific && subjectNamesSlot(existing.subject) ? { common: [existing.subject] } : null);
  const restatement = sim >= (lexical ? w.restatementSimilarityLexical : t.restatementSimilarity);
  // Two close statements with different values said within the tie window: maybe one slot, maybe two
  // attributes — too close to call, so both stay and the conflict is reported ("when unsure, keep both and say so").
  const tied = candidate.now - existing.confirmedAt <= w.tieWindowMs;
  const tooCloseToCall = (!lexical && sim >= t.conflictSimilarity) || valueReplacedByPhrase(candidate.content, existing.content);
  if (!slot && !restatement && tied && tooCloseToCall && candidate.confidence === existing.confidence) {
    return { kind: "conflict", existing, reason: `close statements (similarity ${sim.toFixed(2)}) with different values, stated within ${Math.round(w.tieWindowMs / 1000)}s` };
  }
  const topicThreshold = lexical ? w.topicSimilarityCjk : t.topicSimilarity;
  // With a cue, shared words are evidence of the same topic too ("lint the Python code with Flake8" → "switched to Ruff for linting the Python code").
  const sameTopic = topicSimilarity(sim, clauses) >= topicThreshold || lexicalSimilarity(candidate.content, existing.content) >= w.lexicalTopicWithCue;
  const cued =
    (UPDATE_CUE.test(withoutReason(candidate.content)) || announcesChange(candidate.content)) &&
    sameTopic &&
    sharesAttribute(candidate.content, existing.content, thingOf(candidate, existing), !announcesChange(candidate.content)) &&
    !versionOfAnotherName(candidate, existing.content) &&
    // A statement that names the value it replaces says which memory it replaces: closeness alone does not make
    // another one it ("the editor switched from Slate to Lexical" is no new value for where the app is hosted).
    !namesAnotherValue(candidate, existing);
  if (!slot && !restatement && !cued) return null;

  const reason = slot ? `same slot (${slot.common.join(" ")}), different value` : `same topic (similarity ${sim.toFixed(2)}), different value`;
  if (cued && announcesChange(candidate.content)) return { kind: "supersedes", existing, reason: `${reason}; announced as a change` };
  return byTiming(candidate, existing, config, reason);
}

/**
 * With an update cue, the statements must still share an attribute word beyond who or what they are about
 * ("the linter" in both): the words of an explicit subject name the thing, so "订单中心网关现在监听 9090 端口"
 * shares nothing with "订单中心网关的超时是 30 秒" but the gateway.
 */
function sharesAttribute(a: string, b: string, thing: Set<string> = new Set(), openingIsThing = false): boolean {
  // The verb of change is no attribute: "改用 uni-app" and "改用 OpenSearch" share only how they changed. With only
  // a cue ("目前", "现在"), nor is the noun phrase two Chinese statements both open with: it is the thing
  // ("报修小程序后端…" / "报修小程序目前支持…"); a change said in so many words may be of that phrase itself
  // ("客厅灯选的是 A" / "客厅灯最后定了 B").
  const other = slotTokens(b);
  // A thing that now supports, takes or offers something more gained it: what it is about is no attribute then either.
  const opening = openingIsThing && (hasCjk(a) || saysIncluded(a)) ? sharedThing(a, b) : new Set<string>();
  const scope = sharedScope(a, b);
  // One Chinese character shared on its own is a piece of two different words ("周建国" / "两周"), no attribute; a
  // number both hold is a value ("bay 2" / "version 2.8"), not what it is a value of.
  const shared = [...slotTokens(a)].some(
    (t) => other.has(t) && !thing.has(t) && !opening.has(t) && !scope.has(t) && !isGenericSubject(t) && !/^(we|team|用户|我们)$/.test(t) && !HOW_OFTEN.has(t) && !/^[\u4e00-\u9fff]$/u.test(t) && !/^\d+$/.test(t),
  );
  // About the same thing, a value of the same kind is the same attribute however it is worded: a new clock time
  // for "trucks leave at 6:30 PM" ("pull out at 8:15"), a number in the same unit; a port is no timeout.
  return shared || ((thing.size > 0 || opening.size > 0) && [...valueKinds(a)].some((k) => valueKinds(b).has(k)));
}

/** How often something is done is no attribute of it: two standing rules both say "always". */
const HOW_OFTEN = new Set(["always", "never", "usually", "often", "sometimes", "every", "each"].flatMap((w) => [w, ...contentTokens(w)]));

/**
 * The phrase two English statements both end with, after a preposition: where each applies, not what it
 * says. Examples, in no case file: "always squash commits in the payments repo" / "from now on, tag every
 * release in the payments repo"; "going forward, review migrations for the billing service" / "use UTC
 * timestamps for the billing service".
 */
function sharedScope(a: string, b: string): Set<string> {
  const tail = (text: string): string | null => /\b(?:in|for|to|on|at|across|within|inside|into)\s+((?:the\s+|our\s+|this\s+)?[\w-]+(?:\s+[\w-]+){0,3})\s*[.!]?\s*$/i.exec(text)?.[1] ?? null;
  const ta = tail(a);
  const tb = tail(b);
  if (ta === null || tb === null || hasCjk(a) || hasCjk(b)) return new Set();
  const wa = contentTokenSet(ta);
  const wb = contentTokenSet(tb);
  return wa.size > 0 && wa.size === wb.size && [...wa].every((t) => wb.has(t)) ? wa : new Set();
}

/**
 * The statement names the value it replaces, and the older one, in the same language, holds no word of it:
 * the named value is held by another memory, or by none.
 */
function namesAnotherValue(candidate: Candidate, existing: MemoryRecord): boolean {
  const olds = candidate.oldValues ?? oldValues(candidate.content);
  if (olds.length === 0 || hasCjk(candidate.content) !== hasCjk(existing.content)) return false;
  const held = contentTokenSet(existing.content);
  return olds.every((v) => v.every((t) => !held.has(t))) && sharesOnlyTheThing(candidate.content, existing.content);
}

/**
 * All the two statements share is what they are about: a proper name ("Ledgerly", "Quillpad") or the noun
 * phrase both open with ("工单系统…"). An old value named in other words ("Nougat is dead to us" for minSdk
 * 24, "the old pin") is still judged by an attribute word they share ("minSdk").
 */
function sharesOnlyTheThing(a: string, b: string): boolean {
  const other = slotTokens(b);
  const shared = [...slotTokens(a)].filter((t) => other.has(t));
  if (shared.length === 0) return false;
  const names = new Set([...`${a} ${b}`.matchAll(/(?<=\s|^)\p{Lu}[\p{Ll}\d]+(?:[-'’][\p{L}\d]+)*/gu)].flatMap((m) => contentTokens(m[0])));
  // English names its thing with a capital; Chinese, which has none, by the phrase both open with.
  const opening = hasCjk(a) ? sharedThing(a, b) : new Set<string>();
  return shared.every((t) => names.has(t) || opening.has(t));
}

/**
 * The words of what two statements both open with, before their verb: the thing both are about, which a cue
 * word ("now", "目前") does not make an attribute. Chinese runs words together, so there it is the shared
 * opening of two characters or more. Examples, in no case file: "the kiosk app now takes contactless cards"
 * is no new value for "the Acme kiosk app is built with Flutter"; "报销系统目前支持电子发票" none for
 * "报销系统部署在内网".
 */
function sharedThing(a: string, b: string): Set<string> {
  if (hasCjk(a)) return sharedOpening(a, b);
  const sb = subjectWords(b);
  return new Set([...subjectWords(a)].filter((t) => sb.has(t)));
}

/** The words an English statement opens with before its verb: what it is about. */
function subjectWords(text: string): Set<string> {
  const m = /^\s*(?:the|our|my|this|that|their|its)?\s*((?:[\w.+#-]+\s+){0,5}?)(?=(?:is|are|was|were|has|have|had|will|would|can|could|should|must|now|also|still|just|no\s+longer|does|do|did)\b)/i.exec(text);
  return m ? contentTokenSet(m[1] as string) : new Set<string>();
}

/**
 * A change whose new value is a version of a name the older statement never mentions, while the older holds
 * no version at all: the change is to that name's version, another attribute. Examples, in no case file:
 * "the Rails app was upgraded to Ruby 3.3" does not replace "the billing API is served by a Rails app";
 * "Django 服务的 Python 升级到了 3.12" does not replace "后端接口由 Django 服务提供".
 */
function versionOfAnotherName(candidate: Candidate, existing: string): boolean {
  const versions = candidate.versions ?? versionsNamed(candidate.content);
  if (versions.size === 0 || versionsNamed(existing).size > 0) return false;
  const held = contentTokenSet(existing);
  return [...versions.keys()].every((name) => contentTokens(name).every((t) => !held.has(t)));
}

/** The kinds of value a statement gives: a clock time, a day of the week, or a number with the unit word after it. */
function valueKinds(text: string): Set<string> {
  const kinds = new Set<string>();
  if (/\b\d{1,2}[:.]\d{2}\s*(?:am|pm|a\.m\.|p\.m\.)?(?!\d)|\b\d{1,2}\s*(?:am|pm)\b|\d{1,2}\s*点/i.test(text)) kinds.add("clock");
  for (const m of withDigits(text).matchAll(/\d+(?:\.\d+)?\s*([A-Za-z%]+|[\u4e00-\u9fff])/gu)) kinds.add(`unit:${(m[1] as string).toLowerCase()}`);
  if (/\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|(?:周|星期|礼拜)[一二三四五六日天]/i.test(text)) kinds.add("weekday");
  return kinds;
}

/**
 * The words of the subjects a caller gave (inferred subjects say who spoke, not what the thing is), and a code both
 * statements name: it names a unit, not one of its attributes ("rack C7-14 draws 6 kW" / "rack C7-14 now sits in
 * row 3" — examples in no case file).
 */
function thingOf(candidate: Candidate, existing: MemoryRecord): Set<string> {
  const words = new Set<string>();
  // Only where the statement names its own attribute after the code ("FL-3 firmware is …"): a bare "CLM-7 went
  // through" gives that unit's one state, which the older status line holds.
  const theirs = codeWords(existing.content);
  const held = contentTokenSet(existing.content);
  const mine = codeWords(candidate.content);
  const ownAttribute = [...subjectWords(candidate.content)].some((t) => !mine.has(t) && !held.has(t));
  if (ownAttribute) for (const w of mine) if (theirs.has(w)) words.add(w);
  if (specificSubject(candidate.subject, candidate.source)) for (const w of contentTokenSet(candidate.subject)) words.add(w);
  if (specificSubject(existing.subject, existing.source)) for (const w of contentTokenSet(existing.subject)) words.add(w);
  return words;
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
