import nlp from "compromise";
import { cjkRatio } from "./cjk.js";

/**
 * The named things a text mentions — people, places, organisations, products, pets, projects — as
 * index terms: lowercased, possessives and punctuation dropped, a multi-word name joined by "_" and
 * each of its words kept too (a question may say "Acme" for "Acme Corp"). English names are what
 * compromise tags as proper nouns or acronyms; Chinese names are read from Intl.Segmenter's words by
 * the kinds of word around them (chineseNames).
 */
export function entitiesIn(text: string): string[] {
  const out = new Set<string>();
  const add = (name: string) => {
    const words = nameWords(name.replace(/['’]s\b|s['’](?=\s|$)/g, "")).filter((w) => w.length > 1 || cjkRatio(w) > 0);
    if (words.length === 0) return;
    if (words.length > 1) out.add(words.join("_"));
    for (const w of words) out.add(w);
  };
  // "Name: what they said" is how a turn's speaker is kept in front of a memory.
  const label = /^([^:：\n]{1,40})[:：]\s*/.exec(text);
  if (label) add(label[1] as string);
  const doc = nlp(label ? text.slice(label[0].length) : text);
  for (const part of doc.match("(#ProperNoun|#Acronym)+").out("array") as string[]) {
    for (const name of part.split(/[;,:!?()"“”]+/)) add(name);
  }
  if (cjkRatio(text) > 0) for (const name of chineseNames(text)) add(name);
  return [...out];
}

/** A text split as entity terms are: lowercased, on anything but letters, digits and the marks inside product names ("fly.io", "c++", "c#"). */
export function nameWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}.+#-]+/u)
    .map((w) => w.replace(/^[-.#+]+|[-.]+$/g, ""))
    .filter((w) => w !== "");
}

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });

/**
 * Kinds of word that name something in Chinese: a Latin name in Chinese text ("用Redis做缓存"), a
 * title in 《》 or 「」, the word before a role or kinship title ("刘工", "周阿姨" — the name, not the
 * title), a word ending in a place or organisation suffix ("南京路", "华为公司"), the word after a
 * verb of going or being somewhere ("去成都", "在苏州"), and a familiar form of address ("老钱", "小赵").
 */
const ROLE_AFTER = /^(?:经理|老师|先生|女士|小姐|总|工|医生|教授|同学|阿姨|叔叔|师傅|主任|律师|同事|老板)$/;
const SUFFIX = "(?:[市省县区镇村路街湖山河岛港湾]|公司|集团|大学|学院|中学|小学|银行|医院|餐厅|酒店|机场|车站|项目|团队|乐队|俱乐部)";
/** A word ending in a place or organisation suffix ("南京路"), and the suffix as a word of its own ("华为|公司"). */
const PLACE_OR_ORG = new RegExp(`${SUFFIX}$`);
const PLACE_OR_ORG_WORD = new RegExp(`^${SUFFIX}$`);
const FAMILIAR = /^[老小阿]$/;
const GOING_TO = /^(?:在|去|到|从|回|住在|搬到|来自)$/;

function chineseNames(text: string): string[] {
  const names: string[] = [];
  for (const m of text.matchAll(/[《「『]([^》」』]{1,30})[》」』]/g)) names.push(m[1] as string);
  const words = [...segmenter.segment(text)].filter((s) => s.isWordLike).map((s) => s.segment);
  words.forEach((w, i) => {
    const cjk = cjkRatio(w) > 0;
    if (!cjk && /\p{L}/u.test(w)) names.push(w);
    if (!cjk) return;
    const next = words[i + 1];
    if (next !== undefined && ROLE_AFTER.test(next) && w.length <= 3) names.push(w);
    // A familiar form of address: 老 or 小 or 阿 before a one-character surname or name ("老周", "小林").
    if (FAMILIAR.test(w) && next !== undefined && next.length === 1 && cjkRatio(next) > 0) names.push(w + next);
    if (w.length >= 2 && PLACE_OR_ORG.test(w) && !PLACE_OR_ORG_WORD.test(w)) names.push(w);
    if (next !== undefined && PLACE_OR_ORG_WORD.test(next)) names.push(w + next);
    const prev = words[i - 1];
    if (prev !== undefined && GOING_TO.test(prev) && w.length >= 2 && !PLACE_OR_ORG_WORD.test(w)) names.push(w);
  });
  return names;
}

/** Subjects that name no one in particular. */
const GENERIC_SUBJECTS = new Set(["user", "general", "project", "用户"]);

/** A memory's entity terms: the named things in what it says and in its context, and who it is about when that is someone named. */
export function memoryEntities(m: { content: string; context: string | null; subject: string }): string[] {
  const terms = new Set(entitiesIn(m.context ? `${m.content}\n${m.context}` : m.content));
  // A third party is named by relation ("my cousin"), which the content already says.
  const subject = m.subject.startsWith("third-party:") ? "" : m.subject;
  if (subject && !GENERIC_SUBJECTS.has(subject.toLowerCase())) for (const t of entitiesIn(`${subject}: `)) terms.add(t);
  return [...terms];
}
