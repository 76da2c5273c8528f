import * as vscode from "vscode";
import type { ServerEndpoint } from "../mcpDefinition.js";
import type { MemoryService } from "../memoryService.js";

/** Hindsight: Restart Memory Server — closes the engine and the server and starts them again (the MCP definition follows). */
export async function restartServer(service: MemoryService): Promise<{ url: string } | undefined> {
  try {
    const endpoint: ServerEndpoint = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Hindsight: restarting memory" }, () => service.restart());
    void vscode.window.showInformationMessage(`Hindsight: memory server restarted at ${endpoint.url}.`);
    return { url: endpoint.url };
  } catch (err) {
    void vscode.window.showErrorMessage(`Hindsight: restart failed: ${(err as Error).message}`);
    return undefined;
  }
}

/** Hindsight: Set LLM Endpoint API Key — kept in the OS keychain (SecretStorage), never in settings. */
export async function setLlmApiKey(service: MemoryService, args: { key?: string } = {}): Promise<boolean> {
  const key = args.key ?? (await vscode.window.showInputBox({ title: "API key of the OpenAI-compatible endpoint", password: true, ignoreFocusOut: true, prompt: "Leave empty to remove the stored key." }));
  if (key === undefined) return false;
  await service.setLlmApiKey(key.trim());
  void vscode.window.showInformationMessage(key.trim() ? "Hindsight: API key stored." : "Hindsight: API key removed.");
  return true;
}
