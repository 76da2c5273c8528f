import type { MemoryType } from "../model/memory.js";
import { cjkRatio } from "../text/cjk.js";
import { splitSentences } from "../text/sentences.js";
import { classifyType, inferSubject, isHedged } from "./classify.js";
import { REDACTION_MARK } from "./guard.js";
import { standaloneChinese, standaloneEnglish } from "./standalone.js";
import { parseValidUntil } from "./validity.js";

export interface ExtractedItem {
  content: string;
  type: MemoryType;
  subject: string;
  confidence: number;
  validUntil: number | null;
}

export interface ExtractOptions {
  now: number;
  speaker: string | null;
  maxMemoryChars: number;
  defaultConfidence: number;
}

/** Named gate rules: a sentence matching one is not worth remembering. */
export const DROP_RULES: Array<{ name: string; test: (s: string) => boolean }> = [
  { name: "question", test: (s) => /[?？]\s*$/.test(s) || /(吗|呢|么)[。.]?$/.test(s) },
  {
    name: "greeting or thanks",
    test: (s) =>
      /^(hi|hello|hey|hiya|good (morning|afternoon|evening|night)|morning|thanks|thank you|thx|cheers|bye|goodbye|see you|take care|congrats|congratulations|you'?re (the best|welcome|awesome))\b[^.]{0,30}[.!]*$/i.test(s) ||
      /^(haha+|lol|ok(ay)?|sure|great|nice|cool|awesome|wow|yay|sounds good|no problem|no worries|got it|yeah|yes|yep|right|oh)\b[^.]{0,15}[.!]*$/i.test(s) ||
      /^(早上好|上午好|下午好|晚上好|你好|您好|谢谢|多谢|感谢|哈哈|好的|好吧|嗯|不客气|再见|拜拜|辛苦了)/.test(s),
  },
  { name: "small talk", test: (s) => /天气(真|很|不错|好)|周末过得|吃饭了吗/.test(s) || /\bhow (was|is|are) (your|the) (weekend|day|week)\b/i.test(s) },
  {
    name: "momentary remark",
    test: (s) =>
      /\b(right now|at the moment|just now)\b/i.test(s) ||
      /^(ugh|argh|oops|oh no|damn|hmm+)\b/i.test(s) ||
      /^(let me|lemme|brb|be right back|i'?ll be right back|gotta go)\b/i.test(s) ||
      /^(我先|等一下|稍等)/.test(s),
  },
  {
    name: "preamble",
    test: (s) =>
      /^(quick (overview|note|summary|update)|here'?s (a|the|some) (quick )?(overview|summary|rundown|context)|handing over\b.{0,40}|some context|for context|background)[^.]{0,30}[.:!]?$/i.test(s) ||
      /^(我)?(先)?把(情况|背景)(都)?(说|讲)一下|^我先(说|讲)一下|^先(说|讲)一下/.test(s),
  },
  { name: "request for the assistant", test: (s) => /^(can|could|would|will) you\b/i.test(s) || /^(你)?(帮我|请帮我)(看看|查一下|检查)/.test(s) },
  { name: "too short", test: (s) => s.replace(/[\s\p{P}]/gu, "").length < 4 },
];

const LEADING_FILLER = /^(reminder|note|fyi|btw|by the way|also|oh,? and|and|again|just to confirm|quick note|ps)\s*[:,\-–—]?\s+/i;
const LEADING_FILLER_ZH = /^(再说一下|再说一遍|提醒一下|再强调一下|另外|还有|顺便说一下|补充一下)[，,：:]?\s*/;

/** The statement as a standalone sentence about its speaker; a speaker's name is kept in front when the sentence does not name them. */
function standalone(unit: string, speaker: string | null): string {
  const cjk = cjkRatio(unit) >= 0.3;
  const rewritten = cjk ? standaloneChinese(unit, speaker ?? "用户") : standaloneEnglish(unit, speaker ?? "The user");
  return speaker && !rewritten.includes(speaker) ? `${speaker}: ${rewritten}` : rewritten;
}

export function dropReason(sentence: string): string | null {
  for (const rule of DROP_RULES) if (rule.test(sentence)) return rule.name;
  if (sentence.includes(REDACTION_MARK)) return "refused by the guard";
  return null;
}

function clean(sentence: string): string {
  let s = sentence.replace(LEADING_FILLER, "").replace(LEADING_FILLER_ZH, "").trim();
  if (s.length > 0) s = s[0]!.toUpperCase() + s.slice(1);
  return s;
}

/** Length as the granularity limit sees it: a CJK character carries about three English characters of meaning. */
export function weightedLength(text: string): number {
  return Math.round(text.length * (1 + 2 * cjkRatio(text)));
}

const CONTINUATION = /^(it|this|that|they|these|those|he|she|which|so|and|but|because|then|there)\b/i;

/**
 * Rule-based, offline extraction from one user turn: drops chit-chat, questions and momentary
 * remarks; keeps a short turn whole; splits a long one into standalone sentences.
 */
export function extractRules(text: string, options: ExtractOptions): ExtractedItem[] {
  const kept = splitSentences(text)
    .filter((s) => dropReason(s) === null)
    .map(clean)
    .filter((s) => s.length > 0);
  if (kept.length === 0) return [];

  const units: string[] = [];
  const total = weightedLength(kept.join(" "));
  const oneType = new Set(kept.map(classifyType)).size === 1;
  if (total <= options.maxMemoryChars && oneType) {
    units.push(kept.join(" "));
  } else {
    for (const s of kept) {
      const prev = units.length > 0 ? units[units.length - 1]! : null;
      if (prev !== null && CONTINUATION.test(s) && weightedLength(`${prev} ${s}`) <= options.maxMemoryChars) {
        units[units.length - 1] = `${prev} ${s}`;
      } else {
        units.push(s);
      }
    }
  }

  return units.map((unit) => {
    const subject = inferSubject(unit, options.speaker);
    const thirdParty = subject.startsWith("third-party:");
    const hedged = isHedged(unit);
    const confidence = hedged ? 0.4 : thirdParty ? 0.5 : options.defaultConfidence;
    const content = standalone(unit, options.speaker);
    return { content, type: classifyType(unit), subject, confidence, validUntil: parseValidUntil(unit, options.now) };
  });
}

/**
 * The naive baseline the seed warns about: the whole turn, as said, is one memory (kept as an
 * event so nothing supersedes it). For benchmarks and ablations, not for users.
 */
export function extractVerbatim(text: string, speaker: string | null, confidence: number): ExtractedItem[] {
  const content = text.trim();
  if (content.length === 0) return [];
  return [{ content: speaker ? `${speaker}: ${content}` : content, type: "event", subject: speaker ?? "user", confidence, validUntil: null }];
}
