import { z } from "zod";

/** The LoCoMo file format (../shared/data/locomo/README.md), only the fields the benchmark reads. */
const Turn = z.object({ speaker: z.string(), dia_id: z.string(), text: z.string(), blip_caption: z.string().optional() }).passthrough();
const Qa = z
  .object({ question: z.string(), evidence: z.array(z.union([z.string(), z.number()])).default([]), category: z.number().int() })
  .passthrough();
const Sample = z.object({ sample_id: z.string(), conversation: z.record(z.string(), z.unknown()), qa: z.array(Qa) }).passthrough();
export const LocomoFileSchema = z.array(Sample);

export type LocomoSample = z.infer<typeof Sample>;
export type LocomoTurn = z.infer<typeof Turn>;

export interface LocomoSession {
  index: number;
  at: number;
  turns: LocomoTurn[];
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

/** "1:56 pm on 8 May, 2023" → epoch ms (UTC). */
export function parseSessionDate(text: string): number {
  const m = text.match(/(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i);
  if (!m) {
    const t = Date.parse(text);
    if (Number.isNaN(t)) throw new Error(`unreadable session date "${text}"`);
    return t;
  }
  let hour = Number(m[1]) % 12;
  if ((m[3] as string).toLowerCase() === "pm") hour += 12;
  const month = MONTHS.findIndex((name) => name.startsWith((m[5] as string).toLowerCase().slice(0, 3)));
  return Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]));
}

/** Sessions in numeric order; date keys without a session are ignored. */
export function sessionsOf(sample: LocomoSample): LocomoSession[] {
  const out: LocomoSession[] = [];
  for (const [key, value] of Object.entries(sample.conversation)) {
    const m = key.match(/^session_(\d+)$/);
    if (!m || !Array.isArray(value)) continue;
    const index = Number(m[1]);
    const date = sample.conversation[`session_${index}_date_time`];
    out.push({ index, at: parseSessionDate(String(date)), turns: z.array(Turn).parse(value) });
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Evidence normalised as the README's reference rule: split packed ids, repair "D:11:26", drop unknown ids. */
export function normaliseEvidence(evidence: Array<string | number>, validIds: Set<string>): string[] {
  const out: string[] = [];
  for (const e of evidence) {
    for (const part of String(e).split(/[;,\s]+/)) {
      const m = part.trim().match(/^D:?(\d+):(\d+)$/);
      if (!m) continue;
      const id = `D${Number(m[1])}:${Number(m[2])}`;
      if (validIds.has(id) && !out.includes(id)) out.push(id);
    }
  }
  return out;
}

/** The text a turn contributes: what was said plus the caption of a shared photo (it often holds the fact). */
export function turnContent(turn: LocomoTurn): string {
  return turn.blip_caption ? `${turn.text} [shares ${turn.blip_caption}]` : turn.text;
}
