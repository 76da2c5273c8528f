const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const number = new Intl.NumberFormat();

export const fmtNum = (n: number): string => number.format(n);

export const fmtTime = (ms: number | null): string => (ms === null ? "—" : dateTime.format(new Date(ms)));

/** 0.8123 → "0.81". */
export const fmtScore = (x: number): string => x.toFixed(2);

export function fmtMs(ms: number | null): string {
  if (ms === null) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${ms >= 10 ? Math.round(ms) : ms.toFixed(1)} ms`;
}

export function fmtAgo(ms: number, now = Date.now()): string {
  const s = Math.round((now - ms) / 1000);
  if (s < 0) return `in ${fmtSpan(-s)}`;
  if (s < 45) return "just now";
  return `${fmtSpan(s)} ago`;
}

function fmtSpan(s: number): string {
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min`;
  if (s < 86_400) return `${Math.round(s / 3600)} h`;
  if (s < 86_400 * 60) return `${Math.round(s / 86_400)} d`;
  return `${Math.round(s / (86_400 * 30))} mo`;
}

export const LAYER_NAMES: Record<string, string> = { L0: "raw turns", L1: "working", L2: "episodic", L3: "semantic" };
export const TYPE_NAMES: Record<string, string> = {
  task_state: "task state",
  preference: "preference",
  constraint: "constraint",
  fact: "fact",
  event: "event",
};

/** A duration in words: "a few seconds", "20 seconds", "5 minutes", "3 hours", "2 days". */
export function fmtDuration(ms: number): string {
  const s = Math.round(Math.abs(ms) / 1000);
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (s < 10) return "a few seconds";
  if (s < 90) return unit(s, "second");
  if (s < 5400) return unit(Math.round(s / 60), "minute");
  if (s < 129_600) return unit(Math.round(s / 3600), "hour");
  return unit(Math.round(s / 86_400), "day");
}

/** A statement cut to about `max` characters at a word boundary, for titles. */
export function shorten(text: string, max = 48): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.—-]+$/, "")}…`;
}
