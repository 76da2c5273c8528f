import { MEMORY_GUIDANCE } from "../guidance.js";

export const USE_MEMORY_PROMPT = {
  name: "use_memory",
  title: "Work with hindsight memory",
  description: "How to use this memory: when to recall, when and how to write, when to pass replaces, what never to store, and what leaving scope out does.",
} as const;

/** Which scope calls without one use in this session, and why (sessionScope.ts). */
export interface PromptScope {
  scope: string;
  why: string;
  note?: string | null;
}

/** The prompt text; `task` (optional) is the work about to start. The guidance itself is guidance.ts, shared with the editor's instructions file. */
export function useMemoryText(task: string | undefined, session: PromptScope): string {
  const lines = [
    "You have a long-term memory for this work through the memory_* tools.",
    `In this session, calls without a scope use ${session.scope} (${session.why}).${session.note ? ` Note: ${session.note}.` : ""}`,
  ];
  if (task) lines.push(`Your task: "${task.replace(/\s+/g, " ").trim().slice(0, 300)}". Start by calling memory_recall with it as the query.`);
  for (const section of MEMORY_GUIDANCE) lines.push("", `${section.title}:`, ...section.lines);
  return lines.join("\n");
}
