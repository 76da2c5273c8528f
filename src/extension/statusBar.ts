import * as vscode from "vscode";
import type { MemoryService } from "./memoryService.js";
import { statusBarView } from "./statusBarText.js";

/** "Memory" with the project's count or the server state (statusBarText.ts); a click opens the sidebar. */
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
    const view = statusBarView({
      state: this.service.state,
      count: this.count,
      scope: this.service.activeScope(),
      team: this.service.isTeam,
      url: this.service.endpoint?.url ?? null,
      error: this.service.error,
    });
    this.item.text = view.text;
    this.item.tooltip = new vscode.MarkdownString(view.tooltip);
    this.item.accessibilityInformation = { label: view.accessibility };
    this.item.backgroundColor = view.failed ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
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
