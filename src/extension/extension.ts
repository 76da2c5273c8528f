import { performance } from "node:perf_hooks";
import * as vscode from "vscode";
import { HindsightError } from "../core/errors.js";
import { AutoRecall } from "./autoRecall.js";
import { forget, recall, rememberSelection } from "./commands/memoryCommands.js";
import { copyMcpConfig } from "./commands/mcpConfigCommand.js";
import { restartServer, setLlmApiKey } from "./commands/serverCommands.js";
import { runRegressionSuite } from "./commands/suiteCommand.js";
import { signInTeam, signOutTeam } from "./commands/teamCommands.js";
import { exportMemories, importMemories } from "./commands/transferCommands.js";
import { registerMcpProvider } from "./mcpProvider.js";
import { MemoryService } from "./memoryService.js";
import { MementoRunHistory, registerSidebar, type SidebarHandle } from "./sidebar/index.js";
import { MemoryStatusBar } from "./statusBar.js";

/** Set by the first line of dist/extension.js (esbuild.js banner); undefined when not run from the bundle. */
declare const __hindsightBundleStart: number | undefined;

/** What activate() returns: the pieces tests and other extensions may inspect. */
export interface HindsightApi {
  service: MemoryService;
  statusBar: MemoryStatusBar;
  autoRecall: AutoRecall;
  sidebar: SidebarHandle;
  /** How often the MCP definition changed (address, token or mode) and VS Code was told. */
  readonly mcpDefinitionChanges: number;
  /** Milliseconds activate() took (it loads no model and opens no store). */
  activationMs: number;
  /** Milliseconds from the first line of the bundle running to the end of activate(): evaluating the bundle counts too. */
  loadAndActivateMs: number | null;
}

function reportError(service: MemoryService, command: string, err: unknown): void {
  const message = HindsightError.is(err) ? `${err.message}${err.field ? ` (field ${err.field})` : ""}` : err instanceof Error ? err.message : String(err);
  service.log.error(`${command}: ${message}`);
  void vscode.window.showErrorMessage(`Hindsight: ${message}`, "Show Logs").then((pick) => {
    if (pick) service.log.show();
  });
}

export function activate(context: vscode.ExtensionContext): HindsightApi {
  const started = performance.now();
  const service = new MemoryService(context);
  const statusBar = new MemoryStatusBar(service);
  const autoRecall = new AutoRecall(service);
  const version = (context.extension.packageJSON as { version?: string }).version ?? "0.0.0";
  const mcp = registerMcpProvider(service, version);
  // The sidebar talks to whichever server is in use (local or team) over REST; opening it starts the local one.
  const sidebar = registerSidebar(context, {
    backend: () => {
      const ep = service.endpoint;
      if (!ep) {
        if (service.state === "stopped") void service.ensureEndpoint().catch(() => undefined);
        return null;
      }
      return { url: ep.url, token: ep.token, scope: service.activeScope(), mode: ep.mode };
    },
    history: new MementoRunHistory(context.workspaceState),
    unavailableMessage: () => (service.state === "failed" ? `The memory server failed: ${service.error ?? "unknown error"}. See Hindsight: Show Logs.` : "Starting the memory server…"),
    log: (m) => service.log.warn(m),
  });
  context.subscriptions.push(service, statusBar, autoRecall, mcp, sidebar, service.onDidChange(() => sidebar.backendChanged()));

  const command = <A extends unknown[], R>(id: string, run: (...args: A) => Promise<R>) =>
    vscode.commands.registerCommand(id, async (...args: A) => {
      try {
        const result = await run(...args);
        void statusBar.refresh();
        sidebar.invalidate("memories", "review", "activity");
        return result;
      } catch (err) {
        reportError(service, id, err);
        throw err;
      }
    });
  context.subscriptions.push(
    command("hindsight.rememberSelection", (args?: Parameters<typeof rememberSelection>[1]) => rememberSelection(service, args)),
    command("hindsight.recall", (args?: Parameters<typeof recall>[1]) => recall(service, args)),
    command("hindsight.forget", (args?: Parameters<typeof forget>[1]) => forget(service, args)),
    command("hindsight.showMemories", async () => {
      await sidebar.show("memories");
      return true;
    }),
    command("hindsight.runRegressionSuite", (args?: { path?: string }) => runRegressionSuite(service, args)),
    command("hindsight.copyMcpConfig", (args?: Parameters<typeof copyMcpConfig>[2]) => copyMcpConfig(service, context.extensionPath, args)),
    command("hindsight.export", (args?: Parameters<typeof exportMemories>[1]) => exportMemories(service, args)),
    command("hindsight.import", (args?: Parameters<typeof importMemories>[1]) => importMemories(service, args)),
    command("hindsight.restartServer", () => restartServer(service)),
    command("hindsight.showLogs", async () => {
      service.log.show();
      return true;
    }),
    command("hindsight.setLlmApiKey", (args?: { key?: string }) => setLlmApiKey(service, args)),
    command("hindsight.signInTeam", (args?: Parameters<typeof signInTeam>[1]) => signInTeam(service, args)),
    command("hindsight.signOutTeam", () => signOutTeam(service)),
  );

  let lastScope = "";
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (!e.affectsConfiguration("hindsight")) return;
      const problems = await service.applySettings().catch((err: unknown) => {
        reportError(service, "settings", err);
        return [];
      });
      if (problems.length > 0) {
        const first = problems[0];
        void vscode.window.showWarningMessage(`Hindsight: ${first?.setting}: ${first?.message}. The default is used.`, "Open Settings").then((pick) => {
          if (pick) void vscode.commands.executeCommand("workbench.action.openSettings", first?.setting ?? "hindsight");
        });
      }
      if (e.affectsConfiguration("hindsight.autoRecall")) void autoRecall.sync();
      void statusBar.refresh();
    }),
    vscode.window.onDidChangeActiveTextEditor(() => {
      const before = lastScope;
      lastScope = service.activeScope();
      service.pushEngineConfig();
      void statusBar.refresh();
      if (lastScope !== before) sidebar.backendChanged();
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(() => {
      service.foldersChanged();
      void autoRecall.sync();
    }),
    vscode.lm.onDidChangeChatModels(() => {
      if (service.settings.llm.useCopilot && service.state === "running") void service.refreshLlm();
    }),
    service.onDidChange(() => {
      if (service.state === "running" && service.settings.autoRecall) void autoRecall.sync();
    }),
  );
  if (service.settings.autoRecall) void autoRecall.sync();

  const ended = performance.now();
  const activationMs = ended - started;
  const loadAndActivateMs = typeof __hindsightBundleStart === "number" ? ended - __hindsightBundleStart : null;
  service.log.info(`activated in ${activationMs.toFixed(1)} ms (${loadAndActivateMs === null ? "" : `${loadAndActivateMs.toFixed(1)} ms with loading the bundle; `}the memory server starts on first use)`);
  return {
    service,
    statusBar,
    autoRecall,
    sidebar,
    activationMs,
    loadAndActivateMs,
    get mcpDefinitionChanges() {
      return mcp.changes;
    },
  };
}

export function deactivate(): void {
  // Disposables in context.subscriptions stop the server and close the store.
}
