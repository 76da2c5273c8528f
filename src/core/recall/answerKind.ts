/**
 * What kind of value a question asks for, and whether a memory holds a value of that kind.
 *
 * A question that asks for an amount or a time is answered by a memory that states one: among
 * memories about the same thing, "How many seats does the van have?" is answered by "the van seats
 * 9", not by "the van is white"; "围墙什么时候刷漆？" by "周六上午刷漆", not by "围墙刷成灰色". The
 * embedding model barely tells these apart (both memories name the thing), so the kind of the
 * value asked for is read from the question's words (a wh-word of amount, time or place, or 多/几 with a
 * measure) and the kind held from the memory's (a numeral, a time the date parser reads, a place said
 * with a preposition or a verb of being somewhere).
 */

import { timesIn } from "../text/time.js";
import { contentTokens } from "../text/tokens.js";

export type AnswerKind = "amount" | "time" | "place";

/** Dimensional adjectives and adverbs after "how": the question asks for a measure. */
const HOW_MEASURE = /\bhow\s+(?:long|many|much|often|far|big|large|old|fast|soon|frequently|high|low|tall|heavy|wide|deep|late|early|quickly)\b/i;
/** Chinese measure words (classifiers and units): a numeral before one counts or measures something. */
const MEASURE_WORDS = "个次天岁年月号分秒小时周位倍张台条件页人块元遍成箱包瓶杯斤吨米里克升公座层楼间辆架本份盒袋双对套项门节名家";
/** 多 + a dimension, or 几 + a measure word: 多久, 多大, 几个, 几次. */
const ZH_MEASURE = new RegExp(`多(?:久|长|少|大|快|远|高|重|宽|深|频繁)|几[${MEASURE_WORDS}]`);
const EN_TIME = /\b(?:when|what\s+(?:time|date|day|year|month)|which\s+(?:day|date|year|month|week))\b/i;
const ZH_TIME = /什么时[候间]|何时|哪[天年月周]|几[点号月]/;

// A question of place: "where", "which city/room/region", "在哪", "哪个机房", "什么地方".
const EN_PLACE = /\bwhere\b|\bwhich\s+(?:city|country|region|town|room|building|floor|office|site|data\s*cent(?:er|re)|datacenter|zone|warehouse|shop|store|branch|venue|folder|directory|bucket)\b/i;
const ZH_PLACE = /哪里|哪儿|在哪|哪个(?:城市|国家|地区|省|机房|区|楼|仓|地方|位置|门店|目录)|什么地方|哪座城/;

/** A question after progress asks how much is done: "where are we on the audit", "拆迁进度" are answered by a count. */
const PROGRESS_ASKED = /\bprogress\b|进度|进展到|完成了?多少/i;

export function askedKind(question: string): AnswerKind | null {
  if (EN_TIME.test(question) || ZH_TIME.test(question)) return "time";
  if (HOW_MEASURE.test(question) || ZH_MEASURE.test(question) || PROGRESS_ASKED.test(question)) return "amount";
  if (EN_PLACE.test(question) || ZH_PLACE.test(question)) return "place";
  return null;
}

// A place held: a name after a preposition of place (a move "onto" a platform ends somewhere), a noun of place after one, a path; in Chinese a verb of
// being somewhere and a word that ends in a suffix of place ("部署在杭州机房", "放在三楼储物间").
const EN_PLACE_HELD = /\b(?:in|at|inside|near|under|onto)\s+(?:the\s+|our\s+|an?\s+)?(?:(?!(?:January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Q[1-4])\b)[A-Z][\w-]*|[a-z]+(?:-[a-z0-9]+)*-\d+[a-z]?|(?:[\w-]+\s+)?(?:room|floor|building|office|warehouse|region|zone|data\s*cent(?:er|re)|datacenter|rack|shelf|drawer|cabinet|city|street|road|avenue|campus|site|bucket|folder|directory|basement|garage|attic|kitchen|server))\b|\b(?:hosted|deployed|stored|located|lives?|kept|runs?)\s+(?:on|in|at)\b|(?:^|\s)(?:~|\.{0,2})\/[\w.-]+/;
const ZH_PLACE_HELD = /(?:在|于|到|位于|放|存|搬|挪|部署)[^，。,；;]{0,10}?(?:市|省|区|县|镇|村|路|街|巷|号|楼|层|室|机房|园区|中心|仓|港|站|店|柜|架|目录|文件夹|桶|厨房|车库|地下室)/;
// A clock time or a date is no amount: "closes at 18:00", "due 26/09".
const CLOCK_OR_DATE = /\b\d{1,2}:\d{2}(?::\d{2})?\b|\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}\/\d{1,2}(?:\/\d{2,4})?\b/g;

const NUMBER_WORD = /\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|hundred|thousand|million|once|twice|half|dozen|daily|weekly|monthly|hourly|nightly)\b/i;
/** A Chinese numeral with its measure word (三次, 两个, 半小时), or a frequency (每天). */
const ZH_NUMBER = new RegExp(`[一二两三四五六七八九十百千万半]+[${MEASURE_WORDS}]|每[天日周月年小]`);
export function holdsKind(text: string, kind: AnswerKind): boolean {
  if (kind === "place") return EN_PLACE_HELD.test(text) || ZH_PLACE_HELD.test(text);
  if (kind === "amount") return /\d/.test(text.replace(CLOCK_OR_DATE, " ")) || NUMBER_WORD.test(text) || ZH_NUMBER.test(text);
  if (/\d/.test(text)) return true;
  // A time is whatever the date parser reads as one (text/time.ts): "Saturday morning", "三周前", "下个月".
  return timesIn(text, 0).length > 0;
}

/**
 * Relevance of the candidates with `bonus` added to those holding the kind of value the question
 * asks for, when some do and some do not: it only reorders candidates that already passed the floor.
 */
/**
 * The noun a which/what question asks a value of: "which compiler does the firmware use?" asks for a compiler,
 * "打印机用什么墨盒？" for 墨盒. A memory that names that noun states a value of it ("the compiler is GCC 13");
 * one that only names the same thing ("the firmware ships monthly") does not. None when the wh-word stands
 * alone ("what is…", "是哪家的").
 */
const EN_ASKED_NOUN = /\b(?:which|what)\s+(?:(?:kind|type|sort|version)\s+of\s+)?(?!(?:is|are|was|were|do|does|did|will|would|can|could|should|has|have|had|about|if|else|other|one|ones|way|happened|happens|the|a|an|of|to|for|we|you|they|i|he|she|it)\b)([a-z][a-z-]{2,})\b/i;
const ZH_ASKED_NOUN = /(?:什么|啥|哪个|哪种|哪款|哪一个|哪一种|哪套|哪类)([\u4e00-\u9fff]{2,4})/u;

/** The noun before "是什么" in Chinese: "仓库系统的数据库是什么？" asks for a 数据库. */
const ZH_NOUN_IS_WHAT = /的([\u4e00-\u9fff]{2,4}?)(?:是|用的是|选的是|叫)(?:什么|啥|哪个|哪种|哪款)/u;

export function askedNoun(question: string): string | null {
  const en = EN_ASKED_NOUN.exec(question);
  if (en?.[1]) return contentTokens(en[1])[0] ?? null;
  const zh = ZH_ASKED_NOUN.exec(question)?.[1];
  if (zh) return contentTokens(zh)[0] ?? null;
  return ZH_NOUN_IS_WHAT.exec(question)?.[1] ?? null;
}

/** A memory names the noun: as a word in English, as a run of characters in Chinese (words there are not split by spaces). */
function namesNoun(text: string, noun: string): boolean {
  return /[\u4e00-\u9fff]/.test(noun) ? text.includes(noun) : contentTokens(text).includes(noun);
}

export function favourAnswerKind(question: string, texts: string[], relevance: number[], bonus: number): number[] {
  if (bonus === 0) return relevance;
  const kind = askedKind(question);
  const noun = kind === null ? askedNoun(question) : null;
  if (kind === null && noun === null) return relevance;
  const holds = texts.map((t) => (kind !== null ? holdsKind(t, kind) : namesNoun(t, noun as string)));
  if (holds.every(Boolean) || !holds.some(Boolean)) return relevance;
  return relevance.map((r, i) => (holds[i] ? Math.min(1, r + bonus) : r));
}
