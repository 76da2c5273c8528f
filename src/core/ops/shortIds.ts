import type { EngineContext } from "../context.js";
import { HindsightError } from "../errors.js";

/** How many leading characters of an id people see (like git's abbreviated hashes). */
export const SHORT_ID_CHARS = 8;

/** A shorter prefix would match too much to be a deliberate choice. */
export const MIN_PREFIX_CHARS = 4;

/** How many matches an ambiguity error shows: enough to pick from, few enough to read. */
const SHOWN_MATCHES = 5;

export type IdKind = "memory" | "proposal";

export function shortId(id: string): string {
  return id.slice(0, SHORT_ID_CHARS);
}

export interface IdLookup {
  /** The input field the ids came from (e.g. "--id", "replaces"): every error names it. */
  field: string;
  kind: IdKind;
  scope: string;
}

/**
 * The full id each input names among `known`: the input itself when it is a known id, else the one
 * known id it is a prefix of (case-insensitive). An input matching nothing is NOT_FOUND, one matching
 * several or shorter than MIN_PREFIX_CHARS is INVALID_INPUT; each error names the field.
 */
export function matchIdPrefixes(inputs: readonly string[], known: readonly string[], lookup: IdLookup): string[] {
  const exact = new Set(known);
  return inputs.map((raw) => {
    const input = raw.trim();
    if (exact.has(input)) return input;
    if (input.length < MIN_PREFIX_CHARS) {
      throw new HindsightError("INVALID_INPUT", `${lookup.field}: "${input}" is too short to name a ${lookup.kind}: give at least ${MIN_PREFIX_CHARS} characters of its id`, { field: lookup.field });
    }
    const prefix = input.toLowerCase();
    const matches = known.filter((id) => id.toLowerCase().startsWith(prefix));
    if (matches.length === 1) return matches[0] as string;
    if (matches.length === 0) {
      throw new HindsightError("NOT_FOUND", `${lookup.field}: no ${lookup.kind} in ${lookup.scope} has an id starting with "${input}"`, { field: lookup.field });
    }
    const shown = matches.slice(0, SHOWN_MATCHES).map((id) => id.slice(0, Math.max(SHORT_ID_CHARS, input.length + 4)));
    const more = matches.length > SHOWN_MATCHES ? `, … ${matches.length - SHOWN_MATCHES} more` : "";
    throw new HindsightError("INVALID_INPUT", `${lookup.field}: "${input}" is ambiguous in ${lookup.scope}: ${matches.length} ${lookup.kind} ids start with it (${shown.join(", ")}${more}); give more characters`, {
      field: lookup.field,
    });
  });
}

/**
 * Full ids for ids or id prefixes of one scope's memories (any status, expired or not) or proposals.
 * Full ids are looked up directly; the scope is listed only when some input is a prefix.
 */
export async function resolveIds(ctx: EngineContext, inputs: readonly string[], lookup: IdLookup): Promise<string[]> {
  if (inputs.length === 0) return [];
  if (lookup.kind === "proposal") {
    const ids = (await ctx.store.listProposals({ scope: lookup.scope })).map((p) => p.id);
    return matchIdPrefixes(inputs, ids, lookup);
  }
  const trimmed = inputs.map((i) => i.trim());
  const found = new Set((await ctx.store.getMemories(trimmed)).filter((m) => m.scope === lookup.scope).map((m) => m.id));
  if (trimmed.every((i) => found.has(i))) return trimmed;
  const ids = (await ctx.store.listMemories({ scope: lookup.scope })).map((m) => m.id);
  return matchIdPrefixes(inputs, ids, lookup);
}
