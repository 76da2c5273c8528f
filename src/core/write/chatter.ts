import type { Embedder } from "../ports.js";
import { cosine } from "../text/vector.js";
import { CHATTER_EXAMPLES, DURABLE_EXAMPLES } from "./chatterExamples.js";

/** How many nearest examples of each side are averaged: one odd neighbour does not decide. */
const NEIGHBOURS = 3;

/** The examples' vectors, once per model in a process: embedding them costs a few seconds the first time. */
const examplesByModel = new Map<string, Promise<{ chatter: Float32Array[]; durable: Float32Array[] }>>();

function examplesFor(embedder: Embedder, modelId: string): Promise<{ chatter: Float32Array[]; durable: Float32Array[] }> {
  let found = examplesByModel.get(modelId);
  if (!found) {
    found = Promise.all([embedder.embed([...CHATTER_EXAMPLES]), embedder.embed([...DURABLE_EXAMPLES])]).then(([chatter, durable]) => ({ chatter, durable }));
    // A failed embedding is tried again next time rather than remembered.
    found.catch(() => examplesByModel.delete(modelId));
    examplesByModel.set(modelId, found);
  }
  return found;
}

/** Embed the examples ahead of the first conversation turn, so it does not wait for them; a failure is tried again then. */
export function warmChatter(embedder: Embedder, modelId: string): void {
  examplesFor(embedder, modelId).catch(() => undefined);
}

function nearest(v: Float32Array, examples: Float32Array[]): number {
  const top = examples.map((e) => cosine(v, e)).sort((a, b) => b - a).slice(0, NEIGHBOURS);
  return top.reduce((a, x) => a + x, 0) / Math.max(1, top.length);
}

/**
 * How much closer a statement's vector lies to chatter than to what is worth keeping, read by the
 * embedding model against labelled examples (chatterExamples.ts): positive is nearer small talk. A
 * list of phrases learns the wording of the chatter it was written from; the model's neighbourhood
 * carries the kind — "my calves are still wrecked from Saturday's ride" and "手机快没电了先撤" have
 * no phrase in common with any example, and land beside them.
 */
export async function chatterLean(embedder: Embedder, modelId: string, vector: Float32Array): Promise<number> {
  const { chatter, durable } = await examplesFor(embedder, modelId);
  return nearest(vector, chatter) - nearest(vector, durable);
}

/**
 * A value someone may look up later (a number, a version, a code-like word, a path): a statement that holds
 * one is kept whatever its tone ("ugh, finally got it on Node 22 lol" still says which Node).
 */
export function holdsLookupValue(text: string): boolean {
  return /\d|[A-Za-z]+[_./:@-][A-Za-z0-9]|\b[a-z]+[A-Z]\w*|[A-Z]{2,}/.test(text);
}

/**
 * A statement the extractor rewrote about "the user", said again as the speaker said it: the examples are
 * written as people say them, and a rewrite read in the third person leans where its words' person puts it,
 * not its kind, so a statement is read in the first person:
 * "the user is wiped out after the gym" → "I am wiped out after the gym", "用户今天好困" → "我今天好困".
 * Null when there is no rewrite to undo.
 */
export function asSpoken(text: string): string | null {
  if (!/\bthe user\b|用户/i.test(text)) return null;
  return text
    .replace(/\bthe user's\b/gi, "my")
    .replace(/\bthe user (is|was|has)\b/gi, (_m, verb: string) => `I ${verb === "is" ? "am" : verb === "has" ? "have" : "was"}`)
    // The subject opens a clause; anywhere else "the user" is an object ("that's the user done", "ping the user").
    .replace(/(^|[,;:.!?—–(]\s*|\b(?:and|but|so|because|since|when|if|until|while|then)\s+)the user\b/gi, "$1I")
    .replace(/\bthe user\b/gi, "me")
    .replace(/用户/g, "我");
}

/**
 * A name written with a capital inside the sentence ("lunch with Dana", "back from Lisbon"); "I" and its forms are no name.
 * Opening the sentence, every word has a capital: a name there shows by the "'s" after it ("Priya's covering the late
 * shift", "Marco's back on the night desk") unless it is a pronoun, a pointing word, a question word or a day word.
 */
export function namesSomeone(text: string): boolean {
  if (/(?<=[\p{L}\p{N},;:)]\s+)(?!I\b|I['’])[A-Z][\p{L}'’-]+/u.test(text)) return true;
  const opening = /^\W*([A-Z][a-z]+)['’]s\b/u.exec(text)?.[1];
  return opening !== undefined && !NOT_A_NAME.test(opening);
}

const NOT_A_NAME = /^(?:it|that|this|there|here|what|who|where|when|why|how|he|she|everyone|everybody|someone|somebody|anyone|anybody|nobody|no-one|everything|something|nothing|today|tonight|tomorrow|yesterday|let|one|each|mine|yours|ours|theirs)$/i;
