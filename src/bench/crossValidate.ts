import type { LocomoVariant, QuestionScore } from "./locomo.js";

/** A system's settings judged two ways: the best on every conversation, and chosen without the one scored. */
export interface SystemFit {
  system: string;
  /** The variant that scores best on all conversations together, and its scores (in-sample). */
  fitted: { variant: string; scores: QuestionScore[] };
  /** Per held-out conversation, the variant chosen on the others; the held-out scores pooled. */
  crossValidated: { choices: Record<string, string>; scores: QuestionScore[] };
  /** The system's shipping setting (its first variant), for reference. */
  defaults: { variant: string; scores: QuestionScore[] };
}

/** What a variant is chosen by: mean evidence recall over the questions, averaged over every k. */
export function objective(scores: QuestionScore[], ks: number[]): number {
  if (scores.length === 0) return 0;
  let sum = 0;
  for (const s of scores) for (const k of ks) sum += s.recall[String(k)] ?? 0;
  return sum / (scores.length * ks.length);
}

/**
 * Leave-one-conversation-out: for every conversation, the variant of the system that scores best on
 * the other conversations is scored on it. The pooled held-out scores estimate what the system's
 * tuning gives on a conversation nobody tuned on; the fitted figure beside it shows how much tuning
 * on everything flatters. Ties go to the earlier variant (the shipping default comes first).
 */
export function crossValidate(results: Map<string, QuestionScore[]>, variants: LocomoVariant[], ks: number[]): SystemFit[] {
  const systems = [...new Set(variants.map((v) => v.system))];
  return systems.map((system) => {
    const own = variants.filter((v) => v.system === system);
    const scoresOf = (v: LocomoVariant): QuestionScore[] => results.get(v.name) ?? [];
    const best = (keep: (s: QuestionScore) => boolean): LocomoVariant => {
      let chosen = own[0] as LocomoVariant;
      let top = -1;
      for (const v of own) {
        const o = objective(scoresOf(v).filter(keep), ks);
        if (o > top + 1e-12) {
          top = o;
          chosen = v;
        }
      }
      return chosen;
    };
    const fitted = best(() => true);
    const conversations = [...new Set(scoresOf(own[0] as LocomoVariant).map((s) => s.conversation))];
    const choices: Record<string, string> = {};
    const held: QuestionScore[] = [];
    for (const c of conversations) {
      const v = best((s) => s.conversation !== c);
      choices[c] = v.name;
      held.push(...scoresOf(v).filter((s) => s.conversation === c));
    }
    const first = own[0] as LocomoVariant;
    return {
      system,
      fitted: { variant: fitted.name, scores: scoresOf(fitted) },
      crossValidated: { choices, scores: held },
      defaults: { variant: first.name, scores: scoresOf(first) },
    };
  });
}
