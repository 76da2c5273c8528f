import * as vscode from "vscode";
import type { SIDEBAR_VIEWS, TOPICS } from "../../protocol/constants.js";
import type { ProtocolError } from "../../protocol/messages.js";
import type { SidebarBackendTarget } from "./backend.js";
import type { RunHistory } from "./history.js";
import { newNonce, sidebarHtml } from "./html.js";
import { SidebarRouter } from "./router.js";
import { EvalFolderSuites, type SuiteSource } from "./suites.js";

export const SIDEBAR_VIEW_ID = "hindsight.sidebar";

export interface SidebarDeps {
  /** The server the sidebar talks to now: the local one, the team one, or null while none runs. */
  backend: () => SidebarBackendTarget | null;
  /** Pass-rate history of regression runs, e.g. new MementoRunHistory(context.workspaceState). */
  history: RunHistory;
  /** Suites the Tests view offers; default: eval/*.json of the workspace folders, plus a file dialog. */
  suites?: SuiteSource;
  /** Shown in the sidebar when backend() is null (e.g. "the memory server failed: <reason>"). */
  unavailableMessage?: () => string;
  /** Failed sidebar requests, for the output channel. */
  log?: (message: string) => void;
}

export interface SidebarHandle extends vscode.Disposable {
  /** Data changed outside the sidebar (an agent wrote through MCP, a command edited): reload these parts. */
  invalidate(...topics: Array<(typeof TOPICS)[number]>): void;
  /** The server changed (started, stopped, local ↔ team): the sidebar reloads everything. */
  backendChanged(): void;
  /** Reveals the sidebar on a tab. */
  show(view: (typeof SIDEBAR_VIEWS)[number]): Promise<void>;
  /** Messages the webview sent and the router answered, by request method ("ready" for the handshake): proof of life for tests and logs. */
  readonly handled: ReadonlyMap<string, number>;
  /** Requests that failed, by method, and the last error of each. */
  readonly failed: ReadonlyMap<string, number>;
  readonly lastErrors: ReadonlyMap<string, string>;
}

function pickCasesFile(): Promise<string | null> {
  return Promise.resolve(
    vscode.window.showOpenDialog({ canSelectMany: false, openLabel: "Run regression suite", filters: { "Cases file": ["json"] } }).then((uris) => uris?.[0]?.fsPath ?? null),
  );
}

/**
 * Registers the webview view `hindsight.sidebar`. The page is the bundle in dist/webview (see
 * webview-ui/) under a strict CSP; every message goes through a SidebarRouter to the server's REST API.
 */
export function registerSidebar(context: vscode.ExtensionContext, deps: SidebarDeps): SidebarHandle {
  const bundle = vscode.Uri.joinPath(context.extensionUri, "dist", "webview");
  const media = vscode.Uri.joinPath(context.extensionUri, "media");
  const suites = deps.suites ?? new EvalFolderSuites(() => (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath), pickCasesFile);
  let view: vscode.WebviewView | null = null;
  let router: SidebarRouter | null = null;
  let pendingView: (typeof SIDEBAR_VIEWS)[number] | null = null;
  const handled = new Map<string, number>();
  const failed = new Map<string, number>();
  const lastErrors = new Map<string, string>();

  const provider: vscode.WebviewViewProvider = {
    resolveWebviewView(webviewView) {
      view = webviewView;
      const webview = webviewView.webview;
      webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [bundle, media] };
      const r = new SidebarRouter({
        backend: deps.backend,
        post: (message) => webview.postMessage(message),
        history: deps.history,
        suites,
        ...(deps.unavailableMessage ? { unavailableMessage: deps.unavailableMessage } : {}),
        onError: (method: string, error: ProtocolError) => {
          failed.set(method, (failed.get(method) ?? 0) + 1);
          lastErrors.set(method, `${error.code}: ${error.message}`);
          deps.log?.(`sidebar ${method} failed: ${error.code}: ${error.message}`);
        },
      });
      router = r;
      const listener = webview.onDidReceiveMessage((message: unknown) => {
        void r.handle(message).then(() => {
          const m = message as { type?: unknown; method?: unknown };
          const key = typeof m?.method === "string" ? m.method : typeof m?.type === "string" ? m.type : "?";
          handled.set(key, (handled.get(key) ?? 0) + 1);
          if (pendingView && (message as { type?: unknown })?.type === "ready") {
            r.show(pendingView);
            pendingView = null;
          }
        });
      });
      const asUri = (...path: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(bundle, ...path)).toString();
      webview.html = sidebarHtml({
        cspSource: webview.cspSource,
        nonce: newNonce(),
        scriptUri: asUri("main.js"),
        styleUri: asUri("main.css"),
        codiconUri: asUri("codicons", "codicon.css"),
      });
      webviewView.onDidDispose(() => {
        listener.dispose();
        if (view === webviewView) {
          view = null;
          router = null;
        }
      });
    },
  };

  const registration = vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, provider);
  context.subscriptions.push(registration);
  return {
    invalidate: (...topics) => router?.invalidate(topics),
    backendChanged: () => router?.sendSession(),
    show: async (tab) => {
      if (router && view?.visible) {
        router.show(tab);
        view.show(true);
        return;
      }
      // A hidden webview view reloads when shown: the tab is sent after its ready handshake.
      pendingView = tab;
      await vscode.commands.executeCommand(`${SIDEBAR_VIEW_ID}.focus`);
    },
    handled,
    failed,
    lastErrors,
    dispose: () => registration.dispose(),
  };
}
