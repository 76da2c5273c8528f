import type { MemoryRecord } from "../model/memory.js";
import type { MemoryFilter } from "../ports.js";
import { DAY_MS, daysApart, timesIn, type TimeSpan } from "../text/time.js";

/**
 * The temporal retriever. A question that names a time ("what did we ship in March?", "上周五开会说了
 * 什么") is asked of the memories said in that stretch and soon after, and every candidate is read
 * for how close the time it tells of is to the asked one: the time the memory itself names, resolved
 * against when it was said ("yesterday" said on 8 May is 7 May), or else when it was said.
 */

/** A memory tells of an event up to this long after it happened ("last month we…"): the searched window reaches this far past the asked time. */
const TOLD_WITHIN_MS = 31 * DAY_MS;

/**
 * A weekday named without "last", "this", "上" or "这", with the time of day after it: in a question that is not
 * about the past it asks about every such day ("who closes the kiln room on Thursday evenings?", "周五上午谁开门？"),
 * not about one date. A question in the past asks about the last one ("what did the buyer say on Tuesday?", "周二谁来过？").
 */
const EVERY_SUCH_DAY =
  /(?<!\b(?:last|this|next|past|previous|coming|that|on\s+the)\s+)\b(?:on\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b(?:\s+(?:morning|afternoon|evening|night)s?)?|(?<![上下这本前])(?:周|星期|礼拜)[一二三四五六日天](?:早上|上午|中午|下午|傍晚|晚上|夜里)?/giu;
const PAST_QUESTION = /\b(?:did|was|were|had|happened)\b|[了过]/iu;

/**
 * The time a question asks about, resolved against now; null when it names none. Of several, the
 * last: an anchor usually closes the phrase ("the weekend before 10 April").
 */
export function askedTime(query: string, now: number): TimeSpan | null {
  const spans = timesIn(PAST_QUESTION.test(query) ? query : query.replace(EVERY_SUCH_DAY, " "), now);
  return spans.length === 0 ? null : (spans[spans.length - 1] as TimeSpan);
}

/** The filter of the temporal retriever: memories said during the asked time or within a month after. */
export function saidAround(filter: MemoryFilter, asked: TimeSpan): MemoryFilter {
  return { ...filter, createdIn: { from: asked.from, to: asked.to + TOLD_WITHIN_MS } };
}

/**
 * How close (0-1) the time a memory tells of is to the asked time: 1 when they overlap, falling off
 * with the days between them, more slowly for a wide asked span (a year) than a narrow one (a day).
 */
export function closeness(m: Pick<MemoryRecord, "content" | "createdAt">, asked: TimeSpan): number {
  const told = timesIn(m.content, m.createdAt);
  const own = told.length > 0 ? told : [{ from: m.createdAt - DAY_MS, to: m.createdAt + 1 }];
  const days = Math.min(...own.map((s) => daysApart(s, asked)));
  const scale = Math.max(7, (asked.to - asked.from) / DAY_MS / 2);
  return Math.exp(-days / scale);
}
