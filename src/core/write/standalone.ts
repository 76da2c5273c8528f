/**
 * Rewrites a first-person statement so it reads without its speaker: "I prefer tabs" → "The user
 * prefers tabs", "my address" → "the user's address", "我的邮箱" → "用户的邮箱". Rules, not a parser:
 * they cover the subject pronoun, its verb's agreement, possessives and objects.
 */

import { IRREGULAR_PAST } from "../text/tense.js";

const PRESENT_TO_THIRD: Record<string, string> = { am: "is", have: "has", do: "does", "don't": "doesn't", "haven't": "hasn't", go: "goes", was: "was", were: "was", "weren't": "wasn't" };
const CONTRACTIONS: Array<[RegExp, string]> = [
  [/\bI'm\b/g, "{S} is"],
  [/\bI've\b/g, "{S} has"],
  [/\bI'd\b/g, "{S} would"],
  [/\bI'll\b/g, "{S} will"],
];
const UNCHANGED = new Set([
  "can", "cannot", "could", "will", "would", "shall", "should", "may", "might", "must", "had", "did", "was", "just", "also", "really", "always",
  "never", "still", "already", "usually", "often", "sometimes", "recently", "finally", "even", "only", "actually",
]);

function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  if (PRESENT_TO_THIRD[lower]) return PRESENT_TO_THIRD[lower] as string;
  // A modal or a past in the negative agrees with every subject already ("can't", "didn't", "wasn't").
  if (UNCHANGED.has(lower) || IRREGULAR_PAST.has(lower) || /ed$/.test(lower) || /n['’]t$/.test(lower)) return verb;
  if (/(s|sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/** English: rewrite with `name` ("The user", or the speaker's name) as the subject. */
export function standaloneEnglish(text: string, name: string): string {
  const lowerName = name === "The user" ? "the user" : name;
  let s = text;
  for (const [re, repl] of CONTRACTIONS) s = s.replace(re, repl.replace("{S}", lowerName));
  // "I <adverb>? <verb>": the verb agrees with a third-person subject.
  s = s.replace(/\bI\s+((?:(?:just|also|really|always|never|still|usually|often|sometimes|recently|finally|actually)\s+)?)([A-Za-z']+)/g, (_m, adverb: string, verb: string) => `${lowerName} ${adverb}${thirdPerson(verb)}`);
  s = s.replace(/\bmy\b/gi, `${lowerName}'s`);
  s = s.replace(/\bmine\b/g, `${lowerName}'s`).replace(/\bmyself\b/g, lowerName === "the user" ? "themselves" : lowerName);
  s = s.replace(/\bme\b/g, lowerName);
  // A sentence starts with a capital.
  return s.length > 0 ? s[0]!.toUpperCase() + s.slice(1) : s;
}

/** Chinese: 我 → 用户 (or the speaker's name); 我们 (we) stays. */
export function standaloneChinese(text: string, name: string): string {
  return text.replace(/我(?!们)/g, name);
}
