import * as chrono from "chrono-node";
import { cjkRatio } from "./cjk.js";

/** A stretch of time a text names, resolved against when it was said: [from, to) in epoch ms (UTC). */
export interface TimeSpan {
  from: number;
  to: number;
}

export const DAY_MS = 86_400_000;

type Parsed = chrono.ParsedResult;
type Components = Record<string, number>;

/**
 * What chrono's casual parsers leave out, added through its own extension point: a bare year, a
 * month or season named relative to now, and Chinese relative years and months. Each returns the
 * components it knows; the span follows from what is certain (spanOf). Examples: "back in 1998",
 * "next autumn", "前年冬天", "上个月底".
 */
const YEAR_WORD = /\b(?:in|of|since|during|by|from|until|back\s+in)\s+((?:19|20)\d{2})\b(?![-/:.]?\d)/i;
const ZH_YEAR = /((?:19|20)\d{2})\s*年(?!\s*\d{1,2}\s*月)/;
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const RELATIVE_MONTH = new RegExp(`\\b(last|this|next)\\s+(${MONTHS.join("|")})\\b`, "i");
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };
const RELATIVE_SEASON = /\b(?:(last|this|next)\s+)?(spring|summer|autumn|fall|winter)\b/i;
const ZH_SEASONS: Record<string, number> = { 春: 2, 夏: 5, 秋: 8, 冬: 11 };
const ZH_RELATIVE_YEAR: Record<string, number> = { 前年: -2, 去年: -1, 今年: 0, 明年: 1, 后年: 2 };
const ZH_YEAR_SEASON = /(前年|去年|今年|明年|后年)?([春夏秋冬])(?:天|季)|(前年|去年|今年|明年|后年)/;
const ZH_RELATIVE_MONTH = /(上|这|本|下)个?月/;

function refDate(context: { reference: { instant: Date } }): Date {
  return context.reference.instant;
}

function seasonResult(context: chrono.ParsingContext, index: number, text: string, year: number, startMonth: number): chrono.ParsingResult {
  const end = new Date(Date.UTC(year, startMonth + 3, 1));
  return context.createParsingResult(index, text, { year, month: startMonth + 1, day: 1 }, { year: end.getUTCFullYear(), month: end.getUTCMonth() + 1, day: 1 });
}

/** The year of a month or season named "last", "this" or "next" (or bare: this year's) as said at `ref`. */
function yearOfNamed(which: string, month: number, ref: Date): number {
  const w = which.toLowerCase();
  const year = ref.getUTCFullYear();
  if (w === "last" && month >= ref.getUTCMonth()) return year - 1;
  if (w === "next" && month <= ref.getUTCMonth()) return year + 1;
  return year;
}

const bareYear = (_context: chrono.ParsingContext, match: RegExpMatchArray) => ({ year: Number(match[1]) });

const englishExtras: chrono.Parser[] = [
  {
    pattern: () => YEAR_WORD,
    extract: bareYear,
  },
  {
    pattern: () => RELATIVE_MONTH,
    extract: (context, match) => {
      const month = MONTHS.indexOf((match[2] as string).toLowerCase());
      return { year: yearOfNamed(match[1] as string, month, refDate(context)), month: month + 1 };
    },
  },
  {
    pattern: () => RELATIVE_SEASON,
    extract: (context, match) => {
      const start = SEASONS[(match[2] as string).toLowerCase()] as number;
      return seasonResult(context, match.index ?? 0, match[0], yearOfNamed(match[1] ?? "", start, refDate(context)), start);
    },
  },
];

const chineseExtras: chrono.Parser[] = [
  {
    pattern: () => ZH_YEAR,
    extract: bareYear,
  },
  {
    pattern: () => ZH_YEAR_SEASON,
    extract: (context, match) => {
      const ref = refDate(context);
      const yearWord = match[1] ?? match[3];
      const year = ref.getUTCFullYear() + (yearWord ? (ZH_RELATIVE_YEAR[yearWord] as number) : 0);
      if (match[2]) return seasonResult(context, match.index ?? 0, match[0], year, ZH_SEASONS[match[2]] as number);
      return { year };
    },
  },
  {
    pattern: () => ZH_RELATIVE_MONTH,
    extract: (context, match) => {
      const ref = refDate(context);
      const shift = match[1] === "上" ? -1 : match[1] === "下" ? 1 : 0;
      const d = new Date(Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth() + shift, 1));
      return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
    },
  },
];

/**
 * A month named without a year is the last one before now ("in March" said in November), where
 * chrono takes the nearest, which may be ahead: memories and questions mostly look back.
 */
const pastMonth: chrono.Refiner = {
  refine: (context, results) => {
    const ref = context.reference.instant.getTime();
    for (const r of results) {
      if (!r.start.isCertain("month") || r.start.isCertain("year") || r.end) continue;
      const year = r.start.get("year");
      if (year !== null && r.start.date().getTime() > ref) r.start.imply("year", year - 1);
    }
    return results;
  },
};

function withExtras(base: chrono.Chrono, extras: chrono.Parser[]): chrono.Chrono {
  const c = base.clone();
  c.parsers.push(...extras);
  c.refiners.push(pastMonth);
  return c;
}

const english = withExtras(chrono.casual, englishExtras);
const chinese = withExtras(chrono.zh.casual, chineseExtras);

/**
 * The stretch a parsed expression covers: its start and end when it names both, else as wide as
 * its finest certain component ("June" a month, "2023" a year, "yesterday" a day). An expression
 * with no certain component ("last weekend") covers the week around its date.
 */
function spanOf(r: Parsed): TimeSpan {
  const start = r.start;
  const at = (c: Components) => Date.UTC(c.year ?? 1970, (c.month ?? 1) - 1, c.day ?? 1);
  const known = (k: "year" | "month" | "day") => start.isCertain(k);
  const y = start.get("year") ?? 1970;
  const m = (start.get("month") ?? 1) - 1;
  const d = start.get("day") ?? 1;
  if (r.end) {
    const e = r.end;
    return { from: at({ year: y, month: m + 1, day: d }), to: at({ year: e.get("year") ?? y, month: e.get("month") ?? m + 1, day: e.get("day") ?? 1 }) };
  }
  if (known("day")) return { from: Date.UTC(y, m, d), to: Date.UTC(y, m, d + 1) };
  if (known("month")) return { from: Date.UTC(y, m, 1), to: Date.UTC(y, m + 1, 1) };
  if (known("year")) return { from: Date.UTC(y, 0, 1), to: Date.UTC(y + 1, 0, 1) };
  const mid = Date.UTC(y, m, d);
  return { from: mid - 3 * DAY_MS, to: mid + 4 * DAY_MS };
}

/**
 * The times a text names, resolved against `ref` (when it was said) and read as the past when
 * ambiguous ("in June" said in November is last June). English always; Chinese too when the text
 * holds CJK characters.
 */
export function timesIn(text: string, ref: number): readonly TimeSpan[] {
  // Recall reads the same memories again and again, each against the time it was said.
  const key = `${ref}\u0000${text}`;
  const known = parsed.get(key);
  if (known) return known;
  const spans = Object.freeze(parse(text, ref));
  if (parsed.size >= PARSED_ENTRIES) parsed.delete(parsed.keys().next().value as string);
  parsed.set(key, spans);
  return spans;
}

const PARSED_ENTRIES = 20_000;
const parsed = new Map<string, readonly TimeSpan[]>();

function parse(text: string, ref: number): TimeSpan[] {
  const reference = { instant: new Date(ref), timezone: 0 };
  const results = english.parse(text, reference, { forwardDate: false });
  if (cjkRatio(text) > 0) results.push(...chinese.parse(text, reference, { forwardDate: false }));
  return results.map(spanOf).filter((s) => Number.isFinite(s.from) && Number.isFinite(s.to) && s.to > s.from);
}

/** Days between two spans (0 when they overlap). */
export function daysApart(a: TimeSpan, b: TimeSpan): number {
  if (a.to <= b.from) return (b.from - a.to) / DAY_MS;
  if (b.to <= a.from) return (a.from - b.to) / DAY_MS;
  return 0;
}

