import { SCOPE_HEADER } from "../mcp/scopeHeader.js";

/** Where the memory server the editor's agents should use is, and how to authenticate. */
export interface ServerEndpoint {
  /** http://127.0.0.1:PORT (local) or the team server's URL, without a trailing slash. */
  url: string;
  token: string;
  mode: "local" | "team";
}

export interface HttpDefinitionData {
  label: string;
  uri: string;
  headers: Record<string, string>;
  /** Changes whenever the address, the token, the mode or the scope changes, so the editor refreshes the tools. */
  version: string;
}

export const MCP_PROVIDER_ID = "hindsight.memory";

/** A short non-secret fingerprint of a token (the version string must not reveal it). */
function fingerprint(token: string): string {
  let h = 2166136261;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16).padStart(8, "0");
}

/**
 * The HTTP MCP server definition for an endpoint (the extension wraps it in vscode.McpHttpServerDefinition).
 * `scope` (the active folder's) is what the session's calls without a scope use when VS Code offers
 * no workspace roots: the server started elsewhere has a default of its own.
 */
export function httpDefinition(endpoint: ServerEndpoint, extensionVersion: string, scope?: string): HttpDefinitionData {
  const base = endpoint.url.replace(/\/+$/, "");
  const version = `${extensionVersion}+${endpoint.mode}.${new URL(base).port || "default"}.${fingerprint(endpoint.token)}`;
  return {
    // One label in both modes: VS Code derives the server's identity and the tool names from it, so agents keep the same tools.
    label: "Hindsight memory",
    uri: `${base}/mcp`,
    headers: { Authorization: `Bearer ${endpoint.token}`, ...(scope !== undefined ? { [SCOPE_HEADER]: encodeURIComponent(scope) } : {}) },
    version: scope !== undefined ? `${version}.${fingerprint(scope)}` : version,
  };
}
