/**
 * How an agent should use this memory, in one place: the use_memory prompt, the tools' scope
 * argument and the instructions file the editor writes all quote it, so they cannot drift apart.
 * Plain text without SDK imports, so the extension can use it too.
 */

/** What a call without `scope` does, in the order the server decides it (see sessionScope.ts). */
export const OMITTED_SCOPE =
  "Leave scope out to use the session's project: the scope of the first workspace root your client shares with the server (MCP roots), " +
  "else the scope this connection was configured with, else the server's default project; a scope the server's token may not use is skipped and the result says so.";

/** The guidance, as sections of bullet lines (no task or scope in them: those are added where they are known). */
export const MEMORY_GUIDANCE: ReadonlyArray<{ title: string; lines: readonly string[] }> = [
  {
    title: "When to recall",
    lines: [
      "- At the start of every task, call memory_recall with the task in plain words and read the result before planning.",
      "- Before answering a question about this project, its conventions or the user's preferences, call memory_recall first.",
      "- Recalled constraints and preferences hold unless the user now says otherwise; when the result reports an unresolved conflict, ask the user which holds.",
    ],
  },
  {
    title: "When to write",
    lines: [
      "- Record what will still matter in a later session: durable facts, decisions, preferences, constraints and the state of the current task.",
      "- For one fact you have already distilled, call memory_write with one standalone sentence (add type and subject when you know them).",
      "- For something the user said that you have not distilled, pass the turn to memory_ingest; the engine extracts what is worth keeping.",
      '- When a recall showed the memory the new statement replaces (a changed decision, a new value, newer progress), pass that memory\'s id in replaces (the x in "[id x]").',
      "- Never store secrets: API keys, tokens, passwords, private keys or other credentials (the engine refuses the ones it recognises; do not rely on that).",
      "- Do not store chit-chat or whole transcripts. Call memory_forget only when the user asks you to forget something.",
    ],
  },
  {
    title: "Scope",
    lines: [`- ${OMITTED_SCOPE}`, "- Pass scope only to reach another project, a team (team:<id>) or a user (user:<id>) scope."],
  },
];

/** The guidance as markdown: a bold title per section, its lines below. */
export function guidanceMarkdown(): string {
  return MEMORY_GUIDANCE.map((s) => [`**${s.title}**`, ...s.lines].join("\n")).join("\n\n");
}
