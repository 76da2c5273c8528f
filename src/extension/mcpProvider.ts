import * as vscode from "vscode";
import { httpDefinition, MCP_PROVIDER_ID } from "./mcpDefinition.js";
import type { MemoryService } from "./memoryService.js";

/**
 * Registers the memory server with VS Code's MCP support (agent mode and every chat that uses VS
 * Code's MCP servers). The definition is offered before the server runs; VS Code resolves it when
 * it starts the server, which is when the engine is started (activation stays cheap).
 */
export function registerMcpProvider(service: MemoryService, extensionVersion: string): vscode.Disposable & { readonly changes: number } {
  const changed = new vscode.EventEmitter<void>();
  let lastVersion: string | null = null;
  let changes = 0;
  const definitionData = (endpoint: NonNullable<MemoryService["endpoint"]>) => httpDefinition(endpoint, extensionVersion, service.activeScope());
  const refresh = (): void => {
    const endpoint = service.endpoint;
    const version = endpoint ? definitionData(endpoint).version : null;
    if (version !== null && version !== lastVersion) {
      lastVersion = version;
      changes++;
      changed.fire();
    }
  };
  const sub = service.onDidChange(refresh);
  // Folders added or removed change the scope the definition names. Switching editors does not
  // refresh it: that would restart the agents' MCP sessions on every click between folders (VS Code's
  // workspace roots decide first anyway). setImmediate: the service forgets its folder scopes in a
  // listener of the same event.
  const folders = vscode.workspace.onDidChangeWorkspaceFolders(() => void setImmediate(refresh));
  const toDefinition = (data: ReturnType<typeof httpDefinition>) => new vscode.McpHttpServerDefinition(data.label, vscode.Uri.parse(data.uri), data.headers, data.version);
  const provider: vscode.McpServerDefinitionProvider<vscode.McpHttpServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const endpoint = service.endpoint;
      if (endpoint) return [toDefinition(definitionData(endpoint))];
      // Not started yet: a placeholder address that resolveMcpServerDefinition replaces.
      return [new vscode.McpHttpServerDefinition("Hindsight memory", vscode.Uri.parse("http://127.0.0.1:1/mcp"), {}, `${extensionVersion}+pending`)];
    },
    resolveMcpServerDefinition: async () => {
      try {
        const endpoint = await service.ensureEndpoint();
        return toDefinition(definitionData(endpoint));
      } catch (err) {
        void vscode.window.showErrorMessage(`Hindsight memory server could not start: ${(err as Error).message}`, "Show Logs").then((pick) => {
          if (pick) service.log.show();
        });
        return undefined;
      }
    },
  };
  const registration = vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider);
  const all = vscode.Disposable.from(registration, sub, folders, changed);
  return { dispose: () => all.dispose(), get changes() { return changes; } };
}
