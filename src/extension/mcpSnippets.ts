import { SCOPE_HEADER } from "../mcp/scopeHeader.js";

/** The agents whose MCP configuration the "Copy MCP Config" command writes. */
export const AGENTS = ["Claude Code", "Cursor", "Claude Desktop"] as const;
export type Agent = (typeof AGENTS)[number];
export type Transport = "stdio" | "http";

export interface SnippetInput {
  agent: Agent;
  transport: Transport;
  /** Absolute path of the bundled `bin/hindsight.js`. */
  cliPath: string;
  /** The memory store folder the extension uses (stdio clients open the same store). */
  storePath: string;
  scope: string;
  /** For HTTP: the server URL and a long-lived token for other agents. */
  url?: string;
  token?: string;
  /** The node executable other agents should run (default "node" from PATH). */
  node?: string;
}

export interface Snippet {
  /** Where the snippet goes, in words. */
  where: string;
  text: string;
}

function stdioEntry(i: SnippetInput): { command: string; args: string[] } {
  return { command: i.node ?? "node", args: [i.cliPath, "mcp", "--data", i.storePath, "--scope", i.scope] };
}

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * A ready-to-paste configuration that points another agent at this project's memory: stdio runs
 * the bundled `hindsight mcp` on the same store; HTTP talks to the running server with a token.
 */
export function mcpSnippet(i: SnippetInput): Snippet {
  if (i.transport === "http" && (!i.url || !i.token)) throw new Error("an HTTP snippet needs the server URL and a token");
  const url = i.url ? `${i.url.replace(/\/+$/, "")}/mcp` : "";
  // The scope header makes an HTTP agent read and write this folder's memories, as the stdio entry's
  // --scope does; without it a server that owns several projects' memories would use its own default.
  const headers = { Authorization: `Bearer ${i.token ?? ""}`, [SCOPE_HEADER]: encodeURIComponent(i.scope) };
  switch (i.agent) {
    case "Claude Code": {
      if (i.transport === "stdio") {
        const e = stdioEntry(i);
        return { where: "run in a terminal in the project folder", text: `claude mcp add hindsight -- ${[e.command, ...e.args].map(shellQuote).join(" ")}\n` };
      }
      return {
        where: "run in a terminal in the project folder",
        text: `claude mcp add --transport http hindsight ${shellQuote(url)} ${Object.entries(headers)
          .map(([k, v]) => `--header ${shellQuote(`${k}: ${v}`)}`)
          .join(" ")}\n`,
      };
    }
    case "Cursor":
      return {
        where: ".cursor/mcp.json in the project (or ~/.cursor/mcp.json)",
        text: `${JSON.stringify({ mcpServers: { hindsight: i.transport === "stdio" ? stdioEntry(i) : { url, headers } } }, null, 2)}\n`,
      };
    case "Claude Desktop":
      // Claude Desktop speaks stdio only; HTTP goes through the bundled CLI's own stdio server as well.
      return {
        where: "claude_desktop_config.json (Settings → Developer → Edit Config)",
        text: `${JSON.stringify({ mcpServers: { hindsight: stdioEntry(i) } }, null, 2)}\n`,
      };
  }
}
