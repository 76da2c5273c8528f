export type DiffPart = { kind: "same" | "added" | "removed"; text: string };

const MAX_CELLS = 2_000_000;

function words(s: string): string[] {
  return s.split(/(\s+)/).filter((w) => w !== "");
}

const isSpace = (w: string | undefined): boolean => w !== undefined && /^\s+$/.test(w);
/** Any whitespace equals any other: line breaks between originals are not a difference. */
const same = (x: string | undefined, y: string | undefined): boolean => x === y || (isSpace(x) && isSpace(y));

/**
 * Word-level diff (longest common subsequence) of `before` against `after`; whitespace runs are
 * tokens too, so joining the parts gives back the texts. Too large for the table: one removed and one added part.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = words(before);
  const b = words(after);
  if (a.length * b.length > MAX_CELLS) return [{ kind: "removed", text: before }, { kind: "added", text: after }];
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] = same(a[i], b[j]) ? (lcs[(i + 1) * w + j + 1] as number) + 1 : Math.max(lcs[(i + 1) * w + j] as number, lcs[i * w + j + 1] as number);
    }
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart["kind"], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (same(a[i], b[j])) {
      push("same", b[j] as string);
      i++;
      j++;
    } else if ((lcs[(i + 1) * w + j] as number) >= (lcs[i * w + j + 1] as number)) push("removed", a[i++] as string);
    else push("added", b[j++] as string);
  }
  while (i < a.length) push("removed", a[i++] as string);
  while (j < b.length) push("added", b[j++] as string);
  return parts;
}
