import type { LlmClient } from "../ports.js";

const SYSTEM = [
  "You compare two memories of a coding agent.",
  'Answer with JSON only: {"contradicts": true} when both cannot be true at the same time about the same thing',
  '(a value changed, a decision was reversed), otherwise {"contradicts": false}. Two different facts are not a contradiction.',
].join(" ");

export const CONTRADICTION_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: { contradicts: { type: "boolean" } },
  required: ["contradicts"],
  additionalProperties: false,
};

/**
 * Asks the configured LLM whether a new statement contradicts an existing memory. Returns null when
 * it cannot tell (error, timeout, unreadable answer): the rule-based decision then stands.
 */
export async function llmContradicts(llm: LlmClient, existing: string, candidate: string, timeoutMs: number): Promise<boolean | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    const answer = await Promise.race([
      llm.complete({ system: SYSTEM, user: `Earlier memory: ${existing}\nNew statement: ${candidate}`, jsonSchema: CONTRADICTION_SCHEMA, timeoutMs }),
      late,
    ]);
    if (answer === null) return null;
    const m = answer.match(/"contradicts"\s*:\s*(true|false)/i) ?? answer.trim().match(/^(yes|no|true|false)\b/i);
    if (!m) return null;
    return /^(true|yes)$/i.test(m[1] as string);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
