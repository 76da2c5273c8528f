import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { EngineConfig } from "../core/config.js";
import { HindsightError } from "../core/errors.js";
import { ownerEndpoint } from "../server/owner.js";
import type { LlmEndpoint } from "../server/ownerControl.js";
import { describeOwner } from "../server/ownerLock.js";
import { scopeForFolder } from "../server/paths.js";
import { CopilotLlm, pickCopilotModel } from "./copilotLlm.js";
import { LlmBridge } from "./llmBridge.js";
import type { ServerEndpoint } from "./mcpDefinition.js";
import { OwnerProcess, type OwnerProcessOptions } from "./ownerProcess.js";
import { RestClient, restRequest } from "./restClient.js";
import { activeFolder, NO_FOLDER_SCOPE, type FolderScope } from "./scope.js";
import { engineConfigFor, readSettings, type HindsightSettings, type SettingProblem } from "./settings.js";

export type ServerState = "stopped" | "starting" | "running" | "failed";

const EXTERNAL_TOKEN_KEY = "hindsight.externalAgentsToken";
const LLM_KEY_SECRET = "hindsight.llmApiKey";
/** Team tokens are kept per server URL, so switching servers never sends one server's token to another. */
const teamTokenKey = (url: string) => `hindsight.teamToken:${url.replace(/\/+$/, "")}`;

/**
 * The memory server the editor uses. In local mode that is the store's owner: a child process
 * (`hindsight owner`, started on first use) holding LanceDB, the model and a loopback server, or
 * another process that already owns the store. The extension host itself never loads the engine,
 * survives the owner's death (the next use starts a new one), knows the projects (scopes) of the
 * workspace folders, and pushes settings and the chosen language model into the owner.
 */
export class MemoryService implements vscode.Disposable {
  readonly log: vscode.LogOutputChannel;
  private settingsValue: HindsightSettings;
  /** Our own owner process (null when stopped, or when another process owns the store). */
  private owner: OwnerProcess | null = null;
  /** The editor's language models served to the owner (started when a Copilot model is chosen). */
  private bridge: LlmBridge | null = null;
  private copilot: CopilotLlm | null = null;
  private starting: Promise<ServerEndpoint> | null = null;
  private endpointValue: ServerEndpoint | null = null;
  private stateValue: ServerState = "stopped";
  private lastError: string | null = null;
  private folderScopes: FolderScope[] | null = null;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the endpoint (address, token, mode) or the server state changes. */
  readonly onDidChange = this.changed.event;
  /** Restarts, stops and settings changes, one at a time. */
  private lifecycle: Promise<unknown> = Promise.resolve();
  /** The last model download's progress per file (percent), for tests and the logs. */
  readonly downloads = new Map<string, number>();
  private llmNote = "offline rules";

  constructor(private readonly context: vscode.ExtensionContext) {
    this.log = vscode.window.createOutputChannel("Hindsight", { log: true });
    this.settingsValue = this.readSettings().settings;
  }

  get settings(): HindsightSettings {
    return this.settingsValue;
  }

  get state(): ServerState {
    return this.stateValue;
  }

  get error(): string | null {
    return this.lastError;
  }

  /** The endpoint when the server runs, else null (does not start it). */
  get endpoint(): ServerEndpoint | null {
    return this.endpointValue;
  }

  /** Which extractor the engine uses for ingest: a Copilot model, the endpoint, or the offline rules. */
  get llmDescription(): string {
    return this.llmNote;
  }

  get storePath(): string {
    return this.settingsValue.storagePath || join(this.context.globalStorageUri.fsPath, "store");
  }

  /** The engine configuration our owner process confirmed (null when it is not ours or not running). */
  get engineConfig(): EngineConfig | null {
    return this.owner?.config ?? null;
  }

  /** The pid of our owner process (null when none runs). */
  get ownerPid(): number | null {
    return this.owner?.pid ?? null;
  }

  private readSettings(): { settings: HindsightSettings; problems: SettingProblem[] } {
    const config = vscode.workspace.getConfiguration("hindsight");
    return readSettings((key) => {
      const inspected = config.inspect(key);
      // Only values someone set count; defaults come from readSettings so both places agree.
      return inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
    });
  }

  /** Every workspace folder with its project scope (git remote, else the folder name); computed once per folder change. */
  folders(): FolderScope[] {
    this.folderScopes ??= (vscode.workspace.workspaceFolders ?? [])
      .filter((f) => f.uri.scheme === "file")
      .map((f) => ({ path: f.uri.fsPath, name: f.name, scope: scopeForFolder(f.uri.fsPath) }));
    return this.folderScopes;
  }

  /** The scope recall and writes default to: the active editor's folder, else the first folder. */
  activeScope(): string {
    const file = vscode.window.activeTextEditor?.document.uri;
    return activeFolder(this.folders(), file?.scheme === "file" ? file.fsPath : undefined)?.scope ?? NO_FOLDER_SCOPE;
  }

  /** Starts the server on first use (with progress while the model loads) and returns where it is. */
  async ensureEndpoint(): Promise<ServerEndpoint> {
    if (this.endpointValue) return this.endpointValue;
    this.starting ??= this.start().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /** A REST client for the running server (starting it if needed). */
  async client(): Promise<RestClient> {
    // A restart or settings change queued before this call decides the endpoint: never hand out the one it is closing.
    await this.lifecycle;
    await this.dropDeadForeignOwner();
    return new RestClient(await this.ensureEndpoint());
  }

  /** Another process owned the store and has gone (or changed): forget its address, so this use starts or finds the new owner. */
  private async dropDeadForeignOwner(): Promise<void> {
    const endpoint = this.endpointValue;
    if (!endpoint || endpoint.mode !== "local" || this.owner) return;
    const now = await ownerEndpoint(this.storePath);
    if (now?.url === endpoint.url && now.token === endpoint.token) return;
    this.log.warn(`the owner of ${this.storePath} at ${endpoint.url} has gone: memory starts again`);
    this.endpointValue = null;
    this.setState("stopped");
  }

  private setState(state: ServerState, error: string | null = null): void {
    this.stateValue = state;
    this.lastError = error;
    this.changed.fire();
  }

  private modelIsLocal(): boolean {
    const dir = this.settingsValue.modelPath;
    return dir !== "" && existsSync(join(dir, ...this.settingsValue.embeddingModel.split("/"), "config.json"));
  }

  private async start(): Promise<ServerEndpoint> {
    if (this.settingsValue.mode === "team") return this.connectTeam();
    this.downloads.clear();
    this.setState("starting");
    const started = Date.now();
    try {
      // Another process (a `hindsight serve`, a daemon, another window) owns this store: use its server.
      const owned = await ownerEndpoint(this.storePath);
      if (owned) {
        this.endpointValue = { url: owned.url, token: owned.token, mode: "local" };
        this.log.info(`the store ${this.storePath} is owned by ${describeOwner(owned.owner)}: using its server (this window's settings do not reach its engine)`);
        this.setState("running");
        return this.endpointValue;
      }
      let owner: OwnerProcess | null = null;
      const options: OwnerProcessOptions = {
        cliPath: join(this.context.extensionPath, "bin", "hindsight.js"),
        start: {
          storePath: this.storePath,
          port: this.settingsValue.serverPort,
          ...(this.settingsValue.modelPath ? { modelDir: this.settingsValue.modelPath } : {}),
          modelId: this.settingsValue.embeddingModel,
          allowDownload: this.settingsValue.allowModelDownload,
          ...(this.settingsValue.modelMirrorUrl ? { remoteHost: this.settingsValue.modelMirrorUrl } : {}),
          cacheDir: join(this.context.globalStorageUri.fsPath, "models"),
          config: engineConfigFor(this.settingsValue, this.activeScope()),
          tokens: [await this.externalToken()],
          llm: await this.chooseLlm(),
        },
        onLog: (line) => this.ownerLog(line),
        onExit: (how, expected) => this.ownerExited(owner, how, expected),
      };
      owner = this.modelIsLocal() ? await OwnerProcess.start(options) : await this.startWithDownloadProgress(options);
      this.owner = owner;
      this.endpointValue = { url: owner.url, token: owner.token, mode: "local" };
      this.log.info(`memory server (owner process ${owner.pid}) listening on ${owner.url} (store ${this.storePath}, ${Date.now() - started} ms, extraction: ${this.llmNote})`);
      this.setState("running");
      // Settings changed while it started: the owner gets the current ones.
      this.pushEngineConfig();
      return this.endpointValue;
    } catch (err) {
      const error = HindsightError.is(err, "MODEL_UNAVAILABLE")
        ? this.modelAdvice(err)
        : HindsightError.is(err, "ADDRESS_IN_USE")
            ? new Error(`port ${this.settingsValue.serverPort} on 127.0.0.1 is in use: set hindsight.server.port to another port, or to 0 for a free one`, { cause: err })
            : err;
      const message = error instanceof Error ? error.message : String(error);
      this.log.error(`the memory server could not start: ${message}`);
      this.setState("failed", message);
      throw error;
    }
  }

  /** The owner's stderr, into the output channel at the level it wrote. */
  private ownerLog(line: string): void {
    const m = /^\[hindsight\] (debug|info|warn|error) (.*)$/.exec(line);
    const level = m?.[1] ?? "info";
    const text = m?.[2] ?? line;
    if (level === "error") this.log.error(text);
    else if (level === "warn") this.log.warn(text);
    else if (level === "debug") this.log.debug(text);
    else this.log.info(text);
  }

  /** Our owner ended. Asked to (stop, restart): nothing to do. Otherwise the state says so and the next use starts a new one. */
  private ownerExited(owner: OwnerProcess | null, how: string, expected: boolean): void {
    if (expected || (owner && this.owner !== owner)) return;
    this.owner = null;
    this.endpointValue = null;
    const message = `the memory server (owner process) ended unexpectedly (${how}); it starts again on next use`;
    this.log.error(message);
    this.setState("failed", message);
  }

  /** The engine's model error speaks of environment variables; in the editor the settings are what to change. */
  private modelAdvice(err: Error): Error {
    const s = this.settingsValue;
    const where = s.modelPath ? `the folder in hindsight.modelPath (${s.modelPath})` : "no local folder (hindsight.modelPath is empty)";
    const download = s.allowModelDownload ? `the download from ${s.modelMirrorUrl || "https://huggingface.co/"} failed` : "downloads are off (hindsight.allowModelDownload)";
    return new Error(
      `the embedding model ${s.embeddingModel} could not be loaded from ${where}, and ${download}. ` +
        `Set hindsight.modelPath to a folder holding ${s.embeddingModel}/config.json, tokenizer.json and onnx/model_quantized.onnx, ` +
        `or allow the download (hindsight.allowModelDownload, hindsight.modelMirrorUrl). Details: ${err.message}`,
      { cause: err },
    );
  }

  /**
   * Team mode: the team server and the token from SecretStorage. Unreachable and refused are told
   * apart, so the status says what to do.
   */
  private async connectTeam(): Promise<ServerEndpoint> {
    this.setState("starting");
    const url = this.settingsValue.teamUrl.replace(/\/+$/, "");
    try {
      if (!url) throw new Error("team mode needs a server: set hindsight.team.url");
      const token = await this.context.secrets.get(teamTokenKey(url));
      if (!token) throw new Error(`not signed in to ${url}: run "Hindsight: Sign in to Team Server"`);
      await checkTeamServer(url, token, this.activeScope());
      this.endpointValue = { url, token, mode: "team" };
      this.log.info(`using the team server ${url}`);
      this.setState("running");
      return this.endpointValue;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.log.error(`team server: ${message}`);
      this.setState("failed", message);
      throw err;
    }
  }

  /** Verifies a token against a team server and keeps it in SecretStorage (never in settings). */
  async signInTeam(url: string, token: string): Promise<void> {
    const base = url.replace(/\/+$/, "");
    await checkTeamServer(base, token, this.activeScope());
    await this.context.secrets.store(teamTokenKey(base), token);
    this.log.info(`signed in to the team server ${base}`);
    if (this.settingsValue.mode === "team") await this.restart();
  }

  async signOutTeam(url: string): Promise<void> {
    await this.context.secrets.delete(teamTokenKey(url.replace(/\/+$/, "")));
    if (this.settingsValue.mode === "team") await this.stop();
  }

  /** First use without a local model: the download shows progress and can be cancelled (the next use tries again). */
  private startWithDownloadProgress(options: OwnerProcessOptions): Promise<OwnerProcess> {
    return Promise.resolve(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: "Hindsight: getting the embedding model", cancellable: true },
        (progress, token) => {
          const seen = new Map<string, number>();
          const cancel = new AbortController();
          token.onCancellationRequested(() => cancel.abort());
          return OwnerProcess.start({
            ...options,
            signal: cancel.signal,
            onDownload: (file, percent) => {
              const before = seen.get(file) ?? 0;
              seen.set(file, percent);
              this.downloads.set(file, percent);
              progress.report({ message: `${file.split("/").pop()} ${percent.toFixed(0)}%`, increment: (percent - before) / Math.max(seen.size, 3) });
            },
          }).catch((err: unknown) => {
            throw cancel.signal.aborted ? new Error("cancelled: the embedding model download was cancelled; memory starts again on next use", { cause: err }) : err;
          });
        },
      ),
    );
  }

  /** A long-lived token for agents outside VS Code (kept in SecretStorage, never in settings). */
  async externalToken(): Promise<string> {
    let token = await this.context.secrets.get(EXTERNAL_TOKEN_KEY);
    if (!token) {
      token = randomBytes(32).toString("base64url");
      await this.context.secrets.store(EXTERNAL_TOKEN_KEY, token);
    }
    return token;
  }

  async setLlmApiKey(key: string): Promise<void> {
    if (key) await this.context.secrets.store(LLM_KEY_SECRET, key);
    else await this.context.secrets.delete(LLM_KEY_SECRET);
    await this.refreshLlm();
  }

  /**
   * Copilot models when allowed and present (served to the owner through the loopback bridge), else
   * the configured endpoint (the owner calls it directly), else none (offline rules).
   */
  private async chooseLlm(): Promise<LlmEndpoint | null> {
    const s = this.settingsValue.llm;
    let llm: LlmEndpoint | null = null;
    let note = "offline rules (no language model configured)";
    this.copilot = null;
    if (s.useCopilot) {
      try {
        const model = await pickCopilotModel();
        if (model) {
          this.copilot = new CopilotLlm(model);
          this.bridge ??= await LlmBridge.start(() => this.copilot);
          llm = this.bridge.endpoint(this.copilot.id);
          note = `Copilot model ${model.name}`;
        } else note = "offline rules (no Copilot model available)";
      } catch (err) {
        note = `offline rules (Copilot models unavailable: ${(err as Error).message})`;
      }
    }
    if (!llm && s.endpointUrl && s.endpointModel) {
      const apiKey = await this.context.secrets.get(LLM_KEY_SECRET);
      llm = { url: s.endpointUrl, model: s.endpointModel, ...(apiKey ? { apiKey } : {}) };
      note = `OpenAI-compatible endpoint ${s.endpointUrl} (${s.endpointModel})`;
    }
    this.llmNote = note;
    return llm;
  }

  async refreshLlm(): Promise<void> {
    const llm = await this.chooseLlm();
    this.owner?.setLlm(llm);
    this.log.info(`extraction and summaries: ${this.llmNote}`);
  }

  /** Settings changed: validate, push into the engine, restart only when the address or the store changed. */
  applySettings(): Promise<SettingProblem[]> {
    const next = this.lifecycle.then(() => this.applySettingsNow());
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  private async applySettingsNow(): Promise<SettingProblem[]> {
    const before = this.settingsValue;
    const { settings, problems } = this.readSettings();
    this.settingsValue = settings;
    for (const p of problems) this.log.warn(`setting ${p.setting} ignored: ${p.message}`);
    const needsRestart =
      before.serverPort !== settings.serverPort ||
      before.storagePath !== settings.storagePath ||
      before.modelPath !== settings.modelPath ||
      before.embeddingModel !== settings.embeddingModel ||
      before.modelMirrorUrl !== settings.modelMirrorUrl ||
      before.allowModelDownload !== settings.allowModelDownload ||
      before.mode !== settings.mode ||
      before.teamUrl !== settings.teamUrl;
    // Connecting to a team server is cheap, so a switch to it connects at once (and the status shows the outcome).
    if (needsRestart && (this.owner || this.endpointValue || this.stateValue === "failed" || settings.mode === "team")) {
      await this.stopNow();
      await this.ensureEndpoint().catch(() => undefined);
    }
    else this.pushEngineConfig();
    if (JSON.stringify(before.llm) !== JSON.stringify(settings.llm)) await this.refreshLlm();
    return problems;
  }

  /** The engine's config follows the settings and the active folder's scope (our owner only; another owner keeps its own). */
  pushEngineConfig(): void {
    const owner = this.owner;
    if (!owner) return;
    owner.reconfigure(engineConfigFor(this.settingsValue, this.activeScope())).catch((err: unknown) => {
      if (owner.alive) this.log.warn(`the engine settings were not applied: ${(err as Error).message}`);
    });
  }

  /** The workspace folders changed: scopes are derived again. */
  foldersChanged(): void {
    this.folderScopes = null;
    this.pushEngineConfig();
  }

  /** The profile markdown of a scope (null when the server is not running: reading never starts it). */
  async profile(scope: string): Promise<string | null> {
    if (!this.endpointValue) return null;
    return (await this.client()).text("GET", `/profile?scope=${encodeURIComponent(scope)}`);
  }

  /** Stops and starts again; restarts and settings changes run one at a time, in order. */
  restart(): Promise<ServerEndpoint> {
    const next = this.lifecycle.then(async () => {
      await this.stopNow();
      return this.ensureEndpoint();
    });
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  /** True in team mode: the engine is the server's, not ours (settings that tune it do not apply). */
  get isTeam(): boolean {
    return this.settingsValue.mode === "team";
  }

  stop(): Promise<void> {
    const next = this.lifecycle.then(() => this.stopNow());
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  private async stopNow(): Promise<void> {
    if (this.starting) await this.starting.catch(() => undefined);
    const owner = this.owner;
    this.owner = null;
    this.endpointValue = null;
    if (owner) {
      await owner.stop();
      this.log.info(`memory server stopped (owner process ${owner.pid})`);
    }
    this.setState("stopped");
  }

  dispose(): void {
    void this.stop().then(() => this.bridge?.close());
    this.changed.dispose();
    this.log.dispose();
  }
}

/** Reachable, and the token accepted for the project: otherwise an error that says which and what to do. */
async function checkTeamServer(url: string, token: string, scope: string): Promise<void> {
  let health: Response;
  try {
    health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(5000) });
  } catch (err) {
    throw new Error(`the team server ${url} is unreachable (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message})`, { cause: err });
  }
  if (!health.ok) throw new Error(`the team server ${url} is not healthy (${health.status})`);
  try {
    await restRequest({ url, token }, "GET", "/stats", { query: new URLSearchParams({ scope }), timeoutMs: 10_000 });
  } catch (err) {
    if (!HindsightError.is(err)) throw err;
    if (err.code === "UNAUTHORIZED") throw new Error(`the team server ${url} refused the token (401): sign in again with a valid token`, { cause: err });
    if (err.code === "PROJECT_FORBIDDEN" || err.code === "PERMISSION_DENIED" || err.code === "FORBIDDEN") {
      throw new Error(`the team server ${url} does not allow this token for ${scope} (403 ${err.code}): ${err.message}`, { cause: err });
    }
    const status = typeof err.details?.status === "number" && err.details.status > 0 ? err.details.status : "nothing";
    throw new Error(`the team server ${url} answered ${status}: ${err.message}`, { cause: err });
  }
}
