/**
 * Splits text into sentences: English at . ! ? followed by space and a capital, digit or quote
 * (so "Fly.io", "3.12" and "e.g. this" stay whole), Chinese at 。！？；, and at line breaks.
 * Chat is often typed in lower case: a period after a whole word that is no abbreviation ends a
 * sentence too ("the build is red. anyway, the fix is in", "lunch was late. ok so").
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    // An emoji and a capital after it end a sentence in chat ("rough weekend 😩 Anyway, the job runs at 2"); in
    // Chinese, where nothing marks the next sentence, an emoji inside a remark keeps it whole.
    const parts = line.split(/(?<=[。！？；!?])|(?<=\p{Extended_Pictographic}\uFE0F?)\s+(?=[A-Z])|(?<=[.!?]["')\]]?)\s+(?=["'([]?[A-Z0-9])|(?<=(?:^|[\s(])(?!(?:etc|approx|incl|excl|esp|resp|min|max|dept|misc|ca|cf|vs|al|no)\.)[a-z]{3,}\.)\s+(?=[a-z])/u);
    for (const p of parts) {
      const s = p.trim();
      if (s.length > 0) out.push(s);
    }
  }
  return out;
}
