import { readFile, writeFile } from "node:fs/promises";
import * as vscode from "vscode";
import type { ImportResult } from "../../core/ops/jsonl.js";
import type { MemoryService } from "../memoryService.js";
import { scopeQuery } from "../restClient.js";

export interface TransferArgs {
  /** File to write (export) or read (import); asked for when absent. */
  path?: string;
  scope?: string;
}

/** Hindsight: Export… — the active project's memories and conversation log as JSONL. */
export async function exportMemories(service: MemoryService, args: TransferArgs = {}): Promise<{ path: string; lines: number } | undefined> {
  const scope = args.scope ?? service.activeScope();
  let path = args.path;
  if (!path) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const uri = await vscode.window.showSaveDialog({
      title: `Export memories of ${scope}`,
      filters: { "JSON Lines": ["jsonl"] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, "hindsight-export.jsonl") } : {}),
    });
    if (!uri) return undefined;
    path = uri.fsPath;
  }
  const text = await (await service.client()).text("GET", `/export${scopeQuery(scope)}`);
  await writeFile(path, text, "utf8");
  const lines = text.split("\n").filter((l) => l.trim() !== "").length;
  void vscode.window.showInformationMessage(`Hindsight: exported ${lines} records of ${scope} to ${path}.`);
  return { path, lines };
}

/** Hindsight: Import… — a JSONL export into the active project (duplicates are skipped, secrets refused). */
export async function importMemories(service: MemoryService, args: TransferArgs = {}): Promise<ImportResult | undefined> {
  const scope = args.scope ?? service.activeScope();
  let path = args.path;
  if (!path) {
    const [uri] = (await vscode.window.showOpenDialog({ title: `Import memories into ${scope}`, filters: { "JSON Lines": ["jsonl"] }, canSelectMany: false })) ?? [];
    if (!uri) return undefined;
    path = uri.fsPath;
  }
  const text = await readFile(path, "utf8");
  const r = await (await service.client()).text("POST", `/import${scopeQuery(scope)}`, text);
  const result = JSON.parse(r) as ImportResult;
  const summary = `${result.memories} memories and ${result.turns} conversation lines imported, ${result.skipped.length} already present, ${result.errors.length} refused`;
  const say = result.errors.length > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void say(`Hindsight: import into ${scope}: ${summary}${result.errors[0] ? ` (line ${result.errors[0].line}: ${result.errors[0].message})` : ""}.`);
  return result;
}
