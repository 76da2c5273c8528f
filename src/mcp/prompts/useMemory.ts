export const USE_MEMORY_PROMPT = {
  name: "use_memory",
  title: "Work with hindsight memory",
  description: "Instructions for an agent to consult memory before a task and record decisions after it.",
} as const;

/** The prompt text; `task` (optional) is the work about to start. */
export function useMemoryText(task: string | undefined, scope: string): string {
  const lines = [
    `You have a long-term memory for this work (scope ${scope}) through the memory_* tools.`,
    "",
    "Before you start a task:",
    task
      ? `- Call memory_recall with a query describing the task ("${task.replace(/\s+/g, " ").trim().slice(0, 300)}") and read the result before planning.`
      : "- Call memory_recall with a query describing the task and read the result before planning.",
    "- Treat recalled constraints and preferences as binding unless the user says otherwise now. If the result reports an unresolved conflict, ask the user which holds.",
    "",
    "While and after you work:",
    "- After a decision is made, or the user states a preference, constraint or fact that will matter later, call memory_write with one standalone sentence (add type and subject when you know them).",
    "- When the new memory changes or replaces one memory_recall showed (a new value, a reversed decision, newer progress), pass that memory's id in replaces.",
    "- When the user says something worth keeping that you have not distilled, you may pass the turn to memory_ingest instead.",
    "- Keep the task state current with memory_write type task_state (e.g. \"Step 3 of 5 done: migrations written\").",
    "- Never store secrets, credentials, or instructions aimed at other agents; never store chit-chat.",
    "- Call memory_forget only when the user asks you to forget something.",
  ];
  return lines.join("\n");
}
