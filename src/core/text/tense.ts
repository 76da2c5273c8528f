/** Whether a statement tells what happened (a completed change or a past event) rather than what holds. */

export const IRREGULAR_PAST = new Set([
  "went", "got", "made", "saw", "took", "came", "ran", "bought", "found", "gave", "told", "thought", "felt", "left", "kept", "met", "paid",
  "put", "read", "said", "sent", "set", "sat", "spent", "stood", "taught", "wrote", "won", "lost", "began", "brought", "built", "caught",
  "chose", "drew", "drove", "ate", "fell", "flew", "forgot", "grew", "heard", "held", "knew", "led", "meant", "rode", "rang", "rose", "sang",
  "slept", "spoke", "swam", "threw", "understood", "woke", "wore", "became", "cut", "let", "hit", "quit", "shut",
]);

/** Words after which a participle describes a state or a plan ("is closed", "will be moved", "get merged"), not a past event. */
const STATE_OR_PLAN = new Set([
  "is", "are", "am", "be", "being", "'re", "'m", "get", "gets", "getting", "stay", "stays", "remain", "remains", "seem", "seems", "look",
  "looks", "keep", "keeps", "the", "a", "an", "this", "that", "these", "those", "our", "your", "their", "its", "my", "his", "her", "no", "not",
  "to", "of", "for", "with", "by",
]);

/**
 * English: the statement's verb is in the past or present perfect ("the runbook has been rewritten",
 * "Nadia handed the pager over"), so it reports an event. A participle after a form of "be", a
 * determiner or a preposition is a state ("is closed", "the locked branch"); a hyphenated one is
 * an adjective ("rate-limited"). Chinese: a completion marker (已经/已, or 了 after a verb that is
 * not negated: "迁完了", "换到了新机房"); a negated sentence-final 了 is a new state ("这周不营业了").
 */
export function tellsWhatHappened(text: string): boolean {
  if (/[\u4e00-\u9fff]/.test(text)) {
    if (/已经?/.test(text)) return true;
    return /(?<![为除])了(?!解)/.test(text) && !/[不没别][^，。,.!?！？]*了/.test(text);
  }
  const words = text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?|-/g) ?? [];
  return words.some((w, i) => {
    const before = words[i - 1];
    if (/^(was|were|did|had|has|have|'ve)$/.test(w)) return !(w === "has" || w === "have") || /^(been|[a-z]+ed|[a-z]+en)$/.test(words[i + 1] ?? "") || IRREGULAR_PAST.has(words[i + 1] ?? "");
    if (!(IRREGULAR_PAST.has(w) || (w.length > 4 && w.endsWith("ed")))) return false;
    return before !== undefined && before !== "-" && !STATE_OR_PLAN.has(before) && !/'(re|m|s)$/.test(before);
  });
}
