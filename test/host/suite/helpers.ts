import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { HindsightApi } from "../../../src/extension/extension.js";

export const EXTENSION_ID = "judged-memory.hindsight";

/** The activated extension's API (activates it when needed). */
export async function hindsight(): Promise<HindsightApi> {
  const ext = vscode.extensions.getExtension<HindsightApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not installed in this host`);
  return ext.isActive ? ext.exports : ext.activate();
}

export function folderPath(name: string): string {
  const f = vscode.workspace.workspaceFolders?.find((x) => x.name === name);
  assert.ok(f, `workspace folder ${name} is missing`);
  return f.uri.fsPath;
}

/** Measurements the run reports (test-results/host/measurements.json). */
const measured: Record<string, unknown> = {};
export function measure(name: string, value: unknown): void {
  measured[name] = value;
  const dir = process.env.HINDSIGHT_HOST_TEST_ARTIFACTS;
  if (dir) writeFileSync(join(dir, "measurements.json"), `${JSON.stringify(measured, null, 2)}\n`);
  console.log(`[measure] ${name}: ${JSON.stringify(value)}`);
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration("hindsight").update(key, value, vscode.ConfigurationTarget.Workspace);
}

/**
 * Has VS Code (re)start every MCP server from its definition and invokes our recall tool through
 * vscode.lm; retried while VS Code swaps the tools of a changed definition.
 */
export async function recallThroughVsCode(input: Record<string, unknown>, restart = false): Promise<string> {
  if (restart) await vscode.commands.executeCommand("workbench.mcp.restartServer", "*", { autoTrustChanges: true }).then(undefined, () => undefined);
  await vscode.commands.executeCommand("workbench.mcp.startServer", "*", { waitForLiveTools: true, autoTrustChanges: true });
  let last: unknown = null;
  const text = await waitFor(
    "memory_recall through vscode.lm.invokeTool",
    async () => {
      const tool = vscode.lm.tools.find((t) => t.name.endsWith("memory_recall"));
      if (!tool) return null;
      try {
        const out = await vscode.lm.invokeTool(tool.name, { input, toolInvocationToken: undefined });
        return out.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : "")).join("\n");
      } catch (err) {
        last = err;
        return null;
      }
    },
    60_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last error: ${String(last)}`);
  });
  return text;
}

/** Removes a setting from user and workspace settings (commands like Sign in write user settings). */
export async function clearSetting(key: string): Promise<void> {
  const config = vscode.workspace.getConfiguration("hindsight");
  await config.update(key, undefined, vscode.ConfigurationTarget.Global);
  await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
}
