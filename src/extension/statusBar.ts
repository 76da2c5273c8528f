import * as vscode from "vscode";
import type { MemoryService } from "./memoryService.js";

/** Memory count of the current project and the server state; a click opens the sidebar. */
export class MemoryStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("hindsight.status", vscode.StatusBarAlignment.Right, 100);
  private count: number | null = null;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly service: MemoryService) {
    this.item.name = "Hindsight memory";
    this.item.command = "hindsight.showMemories";
    this.subs.push(service.onDidChange(() => void this.refresh()));
    this.render();
    this.item.show();
  }

  /** Re-reads the count of the active project (only while the server runs: reading never starts it). */
  async refresh(): Promise<void> {
    const endpoint = this.service.endpoint;
    if (endpoint && this.service.state === "running") {
      try {
        const client = await this.service.client();
        const stats = await client.json<{ total?: number; byStatus?: Record<string, number> }>("GET", `/stats?scope=${encodeURIComponent(this.service.activeScope())}`);
        this.count = stats.byStatus?.active ?? stats.total ?? null;
      } catch {
        this.count = null;
      }
    }
    this.render();
  }

  private render(): void {
    const s = this.service.state;
    const scope = this.service.activeScope();
    const team = this.service.isTeam;
    const icon = s === "running" ? (team ? "$(organization)" : "$(database)") : s === "starting" ? "$(loading~spin)" : s === "failed" ? "$(error)" : "$(circle-outline)";
    this.item.text = s === "running" && this.count !== null ? `${icon} ${this.count}` : `${icon} memory`;
    const state =
      s === "running" ? `${team ? "team server" : "server running"} at ${this.service.endpoint?.url ?? "?"}` : s === "starting" ? "server starting…" : s === "failed" ? `server failed: ${this.service.error ?? ""}` : team ? "team server: connects on first use" : "server starts on first use";
    this.item.tooltip = new vscode.MarkdownString(`**Hindsight** — ${this.count ?? "?"} active memories in \`${scope}\`\n\n${state}\n\nClick to open the memory sidebar.`);
    this.item.accessibilityInformation = { label: `Hindsight memory: ${this.count ?? "unknown"} memories, ${state}` };
    this.item.backgroundColor = s === "failed" ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  }

  /** The text shown (for tests). */
  get text(): string {
    return this.item.text;
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    this.item.dispose();
  }
}
