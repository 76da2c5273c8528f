import type { ServerState } from "./memoryService.js";

export interface StatusBarInput {
  state: ServerState;
  /** Active memories of the scope, when read (null: not read or unreadable). */
  count: number | null;
  scope: string;
  team: boolean;
  /** The server's address while one is known. */
  url: string | null;
  error: string | null;
}

export interface StatusBarView {
  text: string;
  /** Markdown. */
  tooltip: string;
  accessibility: string;
  failed: boolean;
}

/**
 * What the status bar item says: a word and the state, not a bare number ("$(database) Memory 31",
 * "Memory: starting…", "Memory: offline"), and in the tooltip the scope and the server. Free of
 * vscode so it is tested on its own.
 */
export function statusBarView(s: StatusBarInput): StatusBarView {
  const server = s.team ? "team server" : "local server";
  const where = s.url ? `${server} at ${s.url}` : server;
  const memories = s.count === null ? "memories" : `${s.count} active ${s.count === 1 ? "memory" : "memories"}`;
  let text: string;
  let state: string;
  switch (s.state) {
    case "running":
      text = `${s.team ? "$(organization)" : "$(database)"} Memory${s.count === null ? "" : ` ${s.count}`}`;
      state = `Connected to the ${where}.`;
      break;
    case "starting":
      text = "$(loading~spin) Memory: starting…";
      state = `The ${server} is starting.`;
      break;
    case "failed":
      text = "$(error) Memory: offline";
      state = `The ${server} is not reachable${s.error ? `: ${s.error}` : "."}`;
      break;
    default:
      text = "$(circle-outline) Memory: idle";
      state = s.team ? "The team server is contacted on first use." : "The local server starts on first use (an agent's recall, a command or the sidebar).";
  }
  const tooltip = `**Hindsight memory** — ${s.state === "running" ? memories : "project"} in \`${s.scope}\`\n\n${state}\n\nClick to open the memory sidebar.`;
  const accessibility = `Hindsight memory, ${s.state === "running" ? memories : s.state === "stopped" ? "idle" : s.state === "failed" ? "offline" : s.state}, project ${s.scope}. ${state}`;
  return { text, tooltip, accessibility, failed: s.state === "failed" };
}
