/**
 * A question that asks two things at once, each part with its own preposition or question word: one
 * embedding of the whole lands between the two answers and finds neither well, so each part is asked
 * on its own too. Only a coordination that repeats its preposition or its question word, or a Chinese
 * question that says 分别 ("each"), is split: "what did Ana and Raj bring?" asks one thing of two people
 * and stays whole. Examples, in no case file: "What do we pay for hosting and for error tracking?" →
 * "What do we pay for hosting?" / "What do we pay for error tracking?"; "Who signs the invoices and who
 * files them?"; "订单服务和库存服务的数据库分别是什么？".
 */

const WH = String.raw`(?:what|which|who|whom|whose|where|when|how|why)`;
const PREPOSITIONS = ["for", "of", "in", "on", "about", "with", "to", "from", "at", "behind", "under"];

export function questionParts(query: string): string[] {
  const q = query.trim();
  return secondQuestion(q) ?? repeatedPreposition(q) ?? eachInChinese(q) ?? [];
}

/** "… X and what/who … Y?": the second question word opens a question of its own. */
function secondQuestion(q: string): string[] | null {
  const m = new RegExp(String.raw`^(${WH}\b.+?),?\s+and\s+(${WH}\b.+)$`, "i").exec(q);
  if (!m) return null;
  const first = (m[1] as string).replace(/[,;]\s*$/, "");
  return [withMark(first, q), m[2] as string];
}

/** "… for X and for Y": the shared head asked with each prepositional phrase. */
function repeatedPreposition(q: string): string[] | null {
  for (const p of PREPOSITIONS) {
    const m = new RegExp(String.raw`^(.*?\b${p})\s+(.+?),?\s+and\s+(?:also\s+)?${p}\s+(.+?)([?？.!]*)$`, "i").exec(q);
    if (!m || !new RegExp(String.raw`^${WH}\b`, "i").test(m[1] as string)) continue;
    const head = m[1] as string;
    const mark = m[4] || "?";
    return [`${head} ${m[2]}${mark}`, `${head} ${m[3]}${mark}`];
  }
  return null;
}

/**
 * "A 的 X 和 Y 分别是什么": X and Y each asked with what follows 分别; the owner before the last 的 of
 * X is Y's owner too ("星港的前端框架和后端语言分别是什么" → "星港的后端语言是什么").
 */
function eachInChinese(q: string): string[] | null {
  const m = /^(.+?)(?:和|与|跟|以及|、)(.+?)(?:都)?分别(.+)$/u.exec(q);
  if (!m) return null;
  const [x, y, tail] = [m[1] as string, m[2] as string, m[3] as string];
  const owner = x.includes("的") ? x.slice(0, x.lastIndexOf("的") + 1) : "";
  return [`${x}${tail}`, `${y.startsWith(owner) ? "" : owner}${y}${tail}`];
}

function withMark(part: string, whole: string): string {
  return /[?？]$/.test(part) ? part : `${part}${/[?？]\s*$/.test(whole) ? "?" : ""}`;
}
