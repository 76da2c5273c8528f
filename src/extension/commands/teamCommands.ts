import * as vscode from "vscode";
import type { MemoryService } from "../memoryService.js";

export interface SignInArgs {
  url?: string;
  token?: string;
}

/**
 * Hindsight: Sign in to Team Server — checks the token against the server (reachable, accepted for
 * this project) and keeps it in SecretStorage; offers to switch to team mode when in local mode.
 */
export async function signInTeam(service: MemoryService, args: SignInArgs = {}): Promise<boolean> {
  const url =
    args.url ??
    (await vscode.window.showInputBox({
      title: "Hindsight team server",
      prompt: "URL of the team server",
      value: service.settings.teamUrl || "https://",
      ignoreFocusOut: true,
      validateInput: (v) => (/^https?:\/\/[^\s/]+/.test(v.trim()) ? null : "an http:// or https:// URL"),
    }));
  if (!url) return false;
  const token = args.token ?? (await vscode.window.showInputBox({ title: `Token for ${url}`, password: true, ignoreFocusOut: true, prompt: "The token your team admin created with `hindsight token create`" }));
  if (!token) return false;
  await service.signInTeam(url.trim(), token.trim());
  const config = vscode.workspace.getConfiguration("hindsight");
  if (config.get<string>("team.url") !== url.trim()) await config.update("team.url", url.trim(), vscode.ConfigurationTarget.Global);
  if (service.settings.mode !== "team") {
    const choice = args.token !== undefined ? "Use Team Memory" : await vscode.window.showInformationMessage(`Hindsight: signed in to ${url}.`, "Use Team Memory");
    if (choice === "Use Team Memory") await config.update("mode", "team", vscode.ConfigurationTarget.Global);
  } else {
    void vscode.window.showInformationMessage(`Hindsight: signed in to ${url}; agents and the sidebar now use the team memory.`);
  }
  return true;
}

/** Hindsight: Sign out of Team Server — forgets the stored token. */
export async function signOutTeam(service: MemoryService): Promise<boolean> {
  const url = service.settings.teamUrl;
  if (!url) return false;
  await service.signOutTeam(url);
  void vscode.window.showInformationMessage(`Hindsight: signed out of ${url}.`);
  return true;
}
