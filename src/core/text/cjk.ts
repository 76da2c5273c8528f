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
