import { hasCjk } from "../text/cjk.js";
import { contentTokenSet } from "../text/tokens.js";
import { clausesOf, valueTokens } from "./slot.js";

/**
 * Words that reject a value in the clause that names it, or the clause right after: "the 3 pm slot was the
 * old plan", "Rivera's quote is scrapped", "周二那版作废", "旧的报价不算了". "off the table" and "not
 * happening" are fixed idioms of rejection: their words cannot vary.
 */
const REJECTS =
  /\b(old|older|outdated|obsolete|wrong|incorrect|cancel(?:l)?ed|scrapped|void|dropped|off the table|no longer|not happening|superseded|ignore)\b|作废|旧(?=[\u4e00-\u9fff])|之前那|不算|不对|错了|取消|过时|不用了|弃用/i;

/** The most words each side of a conflict may say alone: more, and the two say different things rather than two values of one slot. */
const MAX_OWN_WORDS = 3;

/**
 * What one side of a conflict says that the other does not: its own values ("Rivera", "15"), else its own
 * words ("周二"); nothing when the sides differ by more than a value ("glad you have support" / "that sounds
 * fun, enjoy the trip": two remarks, not two values, and no later remark settles anything between them).
 */
function ownValues(side: string, other: string): string[] {
  const words = contentTokenSet(other);
  // A single Chinese character left alone is a particle or a preposition ("为", "到"), not something the side says.
  const own = [...contentTokenSet(side)].filter((w) => !words.has(w) && !/^[\u3400-\u9fff]$/u.test(w));
  if (own.length === 0 || own.length > MAX_OWN_WORDS) return [];
  const theirs = valueTokens(other);
  const values = [...valueTokens(side)].filter((v) => !theirs.has(v));
  // English values are names and numbers; in Chinese, where words are not capitalised, the words it says alone.
  return values.length > 0 ? values : hasCjk(side) ? own : [];
}

/** Clauses of the statement that name this value without rejecting it (in the clause, or in a bare rejection right after: "…15号那个，作废"). */
function affirms(clauses: string[], value: string): boolean {
  return clauses.some((c, i) => {
    if (!contentTokenSet(c).has(value) && !valueTokens(c).has(value)) return false;
    const next = clauses[i + 1] ?? "";
    const bareRejection = REJECTS.test(next) && contentTokenSet(next.replace(new RegExp(REJECTS.source, "gi"), " ")).size === 0;
    return !REJECTS.test(c) && !bareRejection;
  });
}

/**
 * A later statement settles a reported conflict when it takes one side: it affirms a value only that
 * side holds and affirms none of the other side's (it may name them to reject them). "The caterer is
 * Rivera & Sons" against "Catering: Bloom Kitchen", settled by "we went with Rivera & Sons in the end";
 * "交付日是周二" against "交付日是周四", settled by "定了周四，周二那版作废".
 */
export function takesSide(statement: string, side: string, other: string): boolean {
  const mine = ownValues(side, other);
  const theirs = ownValues(other, side);
  if (mine.length === 0 || theirs.length === 0) return false;
  const clauses = clausesOf(statement);
  return mine.some((v) => affirms(clauses, v)) && !theirs.some((v) => affirms(clauses, v));
}
