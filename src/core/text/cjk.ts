/** CJK ideographs, kana and hangul: scripts written without spaces between words. */
const CJK_CHAR = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;
export const CJK_RUN = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+/g;

const ANY_CJK = new RegExp(CJK_RUN.source, "u");

/** The text holds any CJK character (mixed text such as "从 MySQL 迁到了 Redis" counts as Chinese). */
export function hasCjk(text: string): boolean {
  return ANY_CJK.test(text);
}

export function isCjkChar(ch: string): boolean {
  return CJK_CHAR.test(ch);
}

/** Share of CJK characters among the letters and ideographs of a text (0 for pure English). */
export function cjkRatio(text: string): number {
  let cjk = 0;
  let letters = 0;
  for (const ch of text) {
    if (CJK_CHAR.test(ch)) {
      cjk++;
      letters++;
    } else if (/[\p{L}\p{N}]/u.test(ch)) {
      letters++;
    }
  }
  return letters === 0 ? 0 : cjk / letters;
}

/**
 * The English embedding model maps most CJK characters to [UNK], so its vectors say nothing about
 * Chinese text; callers use lexical evidence instead when this is true.
 */
export function isMostlyCjk(text: string): boolean {
  return cjkRatio(text) >= 0.3;
}

/** A Latin word with what holds it together ("C-Eval", "v1.8.2", "qingyu-7b"), or a number. */
const LATIN_WORD = /[\p{L}\p{N}]+(?:[-._+#'][\p{L}\p{N}]+)*/gu;

/**
 * The text is written in a CJK language, judged by words rather than letters: every CJK character is
 * one unit (a morpheme), every Latin word or number one unit, and CJK must be at least half. Counting
 * letters calls a Chinese sentence that names a few English things English ("qingyu-7b 在 C-Eval 上得分
 * 61.2" has 4 ideographs to 14 Latin letters), and the model reads such a sentence as Chinese. Examples,
 * in no case file: "订单服务跑在 Kubernetes 1.29 上" is Chinese; "Ping 李娜 before the release" is English.
 */
export function writtenInCjk(text: string): boolean {
  let cjk = 0;
  for (const ch of text) if (CJK_CHAR.test(ch)) cjk++;
  if (cjk === 0) return false;
  const words = text.replace(CJK_RUN, " ").match(LATIN_WORD)?.length ?? 0;
  return cjk >= words;
}
