/** Temporal phrases that bound how long a statement holds, resolved against the time it was said (UTC days). */

import { tellsWhatHappened } from "../text/tense.js";

const DAY = 86_400_000;
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];

function endOfDay(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 59, 59, 999);
}

/** End of the ISO week (Sunday) containing t. */
function endOfWeek(t: number): number {
  const dow = new Date(t).getUTCDay();
  const daysToSunday = (7 - dow) % 7;
  return endOfDay(t + daysToSunday * DAY);
}

function endOfMonth(t: number): number {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - 1;
}

/** The next date with this month/day on or after `now` (this year, else next year). */
function upcoming(now: number, month: number, day: number): number {
  const year = new Date(now).getUTCFullYear();
  let t = Date.UTC(year, month, day, 23, 59, 59, 999);
  if (t < now - DAY) t = Date.UTC(year + 1, month, day, 23, 59, 59, 999);
  return t;
}

/**
 * The current week or month as the time a statement holds, or null. It is not a bound when it says
 * when something began ("effective this month, invoices go out in EUR", "自本月起按新价收费") or when
 * the statement reports what happened then (text/tense.ts): "our team lead changed this week" and
 * "这个月把日志迁到了对象存储" date a change whose result outlives the period.
 */
function periodBound(text: string, lower: string): "week" | "month" | null {
  const en = lower.match(/\b(?:(as of|starting|beginning|since|effective|from)\s+)?(?:this|the current) (week|month)\b/);
  const zh = text.match(/([从自])?(本周|这周|这个星期|本星期|这个月|本月)(起|开始|以来)?/);
  const period = en ? (en[2] as "week" | "month") : zh ? (/月/.test(zh[2] as string) ? "month" : "week") : /\bfor the rest of the week\b/.test(lower) ? "week" : null;
  if (period === null) return null;
  const starts = en ? en[1] !== undefined : zh ? zh[1] !== undefined || zh[3] !== undefined : false;
  return starts || tellsWhatHappened(text) ? null : period;
}

/**
 * valid_until implied by the text, or null when it states no bound. "From today on" / "从今天开始"
 * start something and do not bound it.
 */
export function parseValidUntil(text: string, now: number): number | null {
  const lower = text.toLowerCase();
  const current = periodBound(text, lower);
  if (current === "week") return endOfWeek(now);
  if (current === "month") return endOfMonth(now);
  if (/\b(for today|today only|for the rest of (the )?(day|today)|until (the )?end of (the )?day)\b/.test(lower) || /(今天内|今天之内|今日内|仅限今天)/.test(text)) {
    return endOfDay(now);
  }
  const until = lower.match(/\b(until|till|til|through|thru|by)\s+(?:the\s+)?([a-z]+)\s+(\d{1,2})(?:st|nd|rd|th)?\b/);
  if (until) {
    const month = MONTHS.findIndex((m) => m.startsWith((until[2] ?? "").slice(0, 3)) && (until[2] ?? "").length >= 3);
    const day = Number(until[3]);
    if (month >= 0 && day >= 1 && day <= 31) return upcoming(now, month, day);
  }
  const untilDay = lower.match(/\b(until|till|by)\s+(?:this\s+|next\s+)?(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\b/);
  if (untilDay) {
    const target = WEEKDAYS.indexOf(untilDay[2] ?? "");
    const dow = new Date(now).getUTCDay();
    const ahead = (target - dow + 7) % 7;
    return endOfDay(now + ahead * DAY);
  }
  const iso = lower.match(/\b(until|till|through|by)\s+(\d{4}-\d{2}-\d{2})\b/);
  if (iso) return endOfDay(Date.parse(iso[2] as string));
  const zh = text.match(/(\d{1,2})月(\d{1,2})[日号]?(之前|以前|前|为止)/);
  if (zh) return upcoming(now, Number(zh[1]) - 1, Number(zh[2]));
  return null;
}
