import nlp from "compromise";

/** An English number word, the cheap test before compromise parses the text. */
const EN_NUMBER_WORD = /\b(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|dozen)\b/i;

const ZH_DIGIT: Record<string, number> = { 零: 0, 〇: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_UNIT: Record<string, number> = { 十: 10, 百: 100, 千: 1000 };

/**
 * A Chinese numeral counts something only next to a measure word or after 第: "四十排", "第九周", "十二台".
 * Elsewhere the same characters are words ("一起", "万一", "十分", "统一"); "点" and "分" are left out
 * because "一点" is as often "a little" as "one o'clock".
 */
const ZH_NUMERAL = /(第\s*)?([零〇一二两三四五六七八九十百千万]+)(?=\s*(?:个|张|条|项|份|台|排|周|天|日|月|年|次|间|位|名|人|元|块|小时|号|楼|层|章|节|集|期|轮|场|家|所|辆|箱|件|单|批|棵|头|只|本|页|篇|道|题|门|栋|套|组|支|队|班|站|公里|米|斤|吨|%))/gu;

/** The value of a Chinese numeral ("四十" 40, "一百零五" 105, "十二" 12, "两万" 20000), or null when it is not one. */
export function chineseNumeral(text: string): number | null {
  let total = 0;
  let section = 0;
  let digit: number | null = null;
  for (const ch of text) {
    if (ch in ZH_DIGIT) {
      digit = ZH_DIGIT[ch] as number;
    } else if (ch in ZH_UNIT) {
      section += (digit ?? 1) * (ZH_UNIT[ch] as number);
      digit = null;
    } else if (ch === "万") {
      total += (section + (digit ?? 0)) * 10000;
      section = 0;
      digit = null;
    } else {
      return null;
    }
  }
  return total + section + (digit ?? 0);
}

/**
 * The text with numbers written in words turned into digits, so counts compare however they were
 * written: "eleven of the 30 crates" → "11 of the 30 crates", "完成第八章" → "完成第8章". English number
 * words are read by compromise; Chinese numerals only where a measure word or 第 makes them counts.
 */
export function withDigits(text: string): string {
  let out = text;
  if (EN_NUMBER_WORD.test(out)) {
    // Read each side of "of" apart: together compromise takes "sixty-two of 112" for the fraction 0.554.
    out = out
      .split(/(\s+(?:out\s+)?of\s+)/i)
      .map((part, i) => {
        if (i % 2 === 1 || !EN_NUMBER_WORD.test(part)) return part;
        const doc = nlp(part);
        doc.numbers().toNumber();
        return doc.text();
      })
      .join("");
  }
  return out.replace(ZH_NUMERAL, (whole, ordinal: string | undefined, numeral: string) => {
    const n = chineseNumeral(numeral);
    return n === null ? whole : `${ordinal ?? ""}${n}`;
  });
}
