import { findInjection } from "./injections.js";
import { findSecrets } from "./secrets.js";

/** What the guard decided about a piece of text, with the reason shown to the user. */
export interface GuardVerdict {
  /** "secret": refused, never stored; "injection": stored as quarantined, never recalled. */
  kind: "ok" | "secret" | "injection";
  reason: string;
  /** The text with every secret replaced by a [REDACTED:<kind>] marker. */
  redacted: string;
}

export const REDACTION_MARK = "[REDACTED:";

const OK: Omit<GuardVerdict, "redacted"> = { kind: "ok", reason: "" };

// Invisible characters may split a secret to hide it; secrets are looked for in the visible text.
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u202A-\u202E\u2066-\u2069\u00AD\u180E\u{E0000}-\u{E007F}]/gu;

/** Secrets first (refused, redacted in the L0 log), then instruction injection (quarantined). */
export async function guardText(text: string): Promise<GuardVerdict> {
  const visible = text.replace(INVISIBLE, "");
  const spans = await findSecrets(visible);
  if (spans.length > 0) {
    let redacted = "";
    let at = 0;
    for (const s of spans) {
      redacted += `${visible.slice(at, s.start)}${REDACTION_MARK}${s.kind}]`;
      at = s.end;
    }
    redacted += visible.slice(at);
    return { kind: "secret", reason: `refused: contains a secret (${[...new Set(spans.flatMap((s) => s.kinds))].join(", ")})`, redacted };
  }
  const category = findInjection(text);
  if (category) return { kind: "injection", reason: `quarantined: looks like an instruction injection (${category})`, redacted: text };
  return { ...OK, redacted: text };
}

/** guardText for an optional field: null when there is no text. */
export async function guardOptional(text: string | null | undefined): Promise<GuardVerdict | null> {
  return text ? guardText(text) : null;
}

/** The verdict on a record's text fields together: a secret in any field refuses it, an injection in any quarantines it. */
export interface FieldsVerdict {
  kind: GuardVerdict["kind"];
  reason: string;
  /** The field the verdict is about (the first secret, else the first injection); null when ok. */
  field: string | null;
}

/** Guards every text field of one record; null and empty fields are skipped. */
export async function guardFields(fields: Record<string, string | readonly string[] | null | undefined>): Promise<FieldsVerdict> {
  let injection: FieldsVerdict | null = null;
  for (const [field, value] of Object.entries(fields)) {
    const texts = value === null || value === undefined ? [] : typeof value === "string" ? [value] : value;
    for (const text of texts) {
      if (text.trim() === "") continue;
      const v = await guardText(text);
      const where = field === "content" ? "" : ` in ${field}`;
      if (v.kind === "secret") return { kind: "secret", field, reason: `${v.reason}${where}` };
      if (v.kind === "injection" && injection === null) injection = { kind: "injection", field, reason: `${v.reason}${where}` };
    }
  }
  return injection ?? { ...OK, field: null };
}

/** The first `k` items whose texts the guard lets through, in order: the read-time check for data stored before the guard judged it. */
export async function firstUnflagged<T>(items: readonly T[], texts: (item: T) => Array<string | null>, k: number): Promise<T[]> {
  const out: T[] = [];
  for (const item of items) {
    if (out.length >= k) break;
    const verdicts = await Promise.all(texts(item).flatMap((t) => (t ? [guardText(t)] : [])));
    if (verdicts.every((v) => v.kind === "ok")) out.push(item);
  }
  return out;
}
