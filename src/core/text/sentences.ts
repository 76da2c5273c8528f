/**
 * Splits text into sentences: English at . ! ? followed by space and a capital, digit or quote
 * (so "Fly.io", "3.12" and "e.g. this" stay whole), Chinese at 。！？；, and at line breaks.
 * Chat is often typed in lower case: a period after a whole word that is no abbreviation ends a
 * sentence too ("the build is red. anyway, the fix is in", "lunch was late. ok so"), as does a measure when a word
 * that turns the talk follows it ("the tank holds 300L. anyway, see you Monday").
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    // An emoji and a capital after it end a sentence in chat ("rough weekend 😩 Anyway, the job runs at 2"), as does
    // an emoji and a word that returns to business ("what a night 🥱 anyhow the backup ran at 3").
    const parts = line.split(/(?<=[。！？；!?])|(?<=\p{Extended_Pictographic}\uFE0F?)\s+(?=[A-Z]|(?:anyway|anyways|anyhow|btw|by the way|oh and|back to (?:work|business))\b)|(?<=[.!?]["')\]]?)\s+(?=["'([]?[A-Z0-9])|(?<=(?:^|[\s(])(?!(?:etc|approx|incl|excl|esp|resp|min|max|dept|misc|ca|cf|vs|al|no)\.)[a-z]{3,}\.)\s+(?=[a-z])|(?<=(?:^|[\s(])\d+(?:[.,]\d+)?[A-Za-z%°]{0,3}\.)\s+(?=(?:anyway|anyways|anyhow|btw|ok|okay|so|lol|haha|thanks|thx|cheers|have|see|talk|gotta|gtg)\b)/u);
    for (const p of parts.flatMap(afterEmojiInChinese).flatMap(atTopicShift).flatMap(atSpokenPause)) {
      const s = p.trim();
      if (s.length > 0) out.push(s);
    }
  }
  return out;
}

/** A Chinese clause that turns to business: a marker of a new topic opens it, or it carries a value (a number, a Latin name). */
const NEW_STATEMENT_ZH = /^(?:言归正传|说正事|说回正事|正事|回到正题|对了|另外|顺便|btw)|[A-Za-z0-9]/iu;

/**
 * Chinese puts no space between words, so an emoji and a space end a sentence when a statement of
 * its own follows ("周末爬山腿都废了🥵 说回正事：测试服今晚停机", "堵死了😤 周会挪到 3 点"); a tail that
 * goes on with the remark stays with it ("地铁挤爆了😵 差点迟到"), and an emoji inside a run of
 * characters ends nothing ("新版本🚀已上线").
 */
function afterEmojiInChinese(part: string): string[] {
  const pieces = part.split(/(?<=\p{Extended_Pictographic}\uFE0F?)\s+(?=[\u3400-\u9fff])/u);
  const out: string[] = [];
  for (const piece of pieces) {
    if (out.length > 0 && !NEW_STATEMENT_ZH.test(piece)) out[out.length - 1] += ` ${piece}`;
    else out.push(piece);
  }
  return out;
}

/**
 * A marker that turns to a new topic starts a new sentence even after a comma: "终于周五了，对了测试库端口是 5433",
 * "what a week, btw the build box moved to Oslo". The words that turn the topic are a closed class.
 */
const TOPIC_SHIFT = /[，,]\s*(?=(?:对了|顺便(?:说一下|提一下|说下|提下)?|另外|说正事|言归正传)[，,：:\s]?)|,\s+(?=(?:btw|by the way|anyway|oh and)\b)/iu;

function atTopicShift(part: string): string[] {
  return part.split(TOPIC_SHIFT).map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Chinese punctuation a writer puts in; voice-to-text leaves it out and puts a space where the speaker paused. */
const CJK_PUNCTUATION = /[，。！？；、：,.!?;:]/;
/** A clause shorter than this is an item of a list ("周二 周四 周六上午"), not a sentence. */
const SPOKEN_CLAUSE_MIN = 4;

/**
 * Chinese dictated without punctuation: a space between two Chinese characters is where the speaker paused, so it
 * ends a sentence, and a remark and a fact said in one breath are judged apart ("今天地铁挤爆了 跟你说下 机房门禁
 * 以后刷工牌", "哎又加班 对了 周报改到周一交"). A piece too short to be a clause joins the one after it, so a list of
 * words written with spaces stays whole ("周一 周三 周五上午开放"). A punctuated line keeps its spaces.
 */
function atSpokenPause(part: string): string[] {
  if (CJK_PUNCTUATION.test(part)) return [part];
  const pieces = part.split(/(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])/u);
  if (pieces.length < 2) return [part];
  const out: string[] = [];
  let carry = "";
  for (const piece of pieces) {
    const joined = carry ? `${carry} ${piece}` : piece;
    if ([...piece.replace(/\s+/g, "")].length < SPOKEN_CLAUSE_MIN) carry = joined;
    else {
      out.push(joined);
      carry = "";
    }
  }
  if (carry && out.length > 0) out[out.length - 1] += ` ${carry}`;
  else if (carry) out.push(carry);
  return out;
}
