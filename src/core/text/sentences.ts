/**
 * Splits text into sentences: English at . ! ? followed by space and a capital, digit or quote
 * (so "Fly.io", "3.12" and "e.g. this" stay whole), Chinese at 。！？；, and at line breaks.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\n+/)) {
    const parts = line.split(/(?<=[。！？；!?])|(?<=[.!?]["')\]]?)\s+(?=["'([]?[A-Z0-9])/u);
    for (const p of parts) {
      const s = p.trim();
      if (s.length > 0) out.push(s);
    }
  }
  return out;
}
