import { join } from "node:path";
import * as vscode from "vscode";
import { AGENTS, mcpSnippet, type Agent, type Snippet, type Transport } from "../mcpSnippets.js";
import type { MemoryService } from "../memoryService.js";

/** Hindsight: Copy MCP Config for Other Agents — stdio (the bundled `hindsight mcp`) or HTTP (this server) for Claude Code, Cursor, Claude Desktop. */
export async function copyMcpConfig(service: MemoryService, extensionPath: string, args: { agent?: Agent; transport?: Transport } = {}): Promise<Snippet | undefined> {
  const agent =
    args.agent ?? ((await vscode.window.showQuickPick([...AGENTS], { title: "Copy MCP config for which agent?" })) as Agent | undefined);
  if (!agent) return undefined;
  let transport = args.transport;
  if (!transport) {
    const pick = await vscode.window.showQuickPick(
      [
        { label: "stdio", description: "the agent runs the bundled hindsight mcp on this project's store (recommended)" },
        { label: "http", description: "the agent connects to the server running in VS Code (only while VS Code runs)" },
      ],
      { title: "Transport" },
    );
    transport = pick?.label as Transport | undefined;
  }
  if (!transport) return undefined;
  const scope = service.activeScope();
  const http = transport === "http" ? { url: (await service.ensureEndpoint()).url, token: await service.externalToken() } : {};
  const snippet = mcpSnippet({ agent, transport, cliPath: join(extensionPath, "bin", "hindsight.js"), storePath: service.storePath, scope, ...http });
  await vscode.env.clipboard.writeText(snippet.text);
  const portNote = transport === "http" && service.settings.serverPort === 0 ? " The port changes each session: set hindsight.server.port to keep it." : "";
  void vscode.window.showInformationMessage(`Hindsight: ${agent} MCP config (${transport}) copied — paste it into ${snippet.where}.${portNote}`);
  return snippet;
}
