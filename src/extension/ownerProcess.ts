import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { dirname } from "node:path";
import type { EngineConfig, EngineConfigInput } from "../core/config.js";
import { HindsightError } from "../core/errors.js";
import { encodeLine, lineReader, type LlmEndpoint, type OwnerCommand, type OwnerEvent, type OwnerStart } from "../server/ownerControl.js";

export interface OwnerProcessOptions {
  /** The bundled `bin/hindsight.js`. */
  cliPath: string;
  /** The runtime to start it with: VS Code's own (as Node, through ELECTRON_RUN_AS_NODE) by default. */
  execPath?: string;
  start: Omit<OwnerStart, "type">;
  env?: NodeJS.ProcessEnv;
  /** Aborting before it serves kills the starting owner (a cancelled model download). */
  signal?: AbortSignal;
  onDownload?: (file: string, percent: number) => void;
  /** The owner's log lines (its stderr). */
  onLog?: (line: string) => void;
  /** The process ended; `expected` is false when nobody asked it to stop (a crash, a kill). */
  onExit?: (how: string, expected: boolean) => void;
}

const LOG_TAIL = 8;

/**
 * The store's owner as a child process of the extension host (`hindsight owner`): LanceDB, ONNX and
 * the model never load into VS Code, a native crash takes only the child, and the child dies with
 * the editor because its stdin is the editor's pipe.
 */
export class OwnerProcess {
  readonly url: string;
  readonly token: string;
  readonly pid: number;
  private configValue: EngineConfig;
  private exited = false;
  private stopping = false;
  /** Settings changes answered in order: each waits for the owner's `config` or `error` event. */
  private readonly waiting: Array<{ resolve: (c: EngineConfig) => void; reject: (e: Error) => void }> = [];
  private readonly exitWaiters: Array<() => void> = [];

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    ready: Extract<OwnerEvent, { type: "ready" }>,
  ) {
    this.url = ready.url;
    this.token = ready.token;
    this.pid = ready.pid;
    this.configValue = ready.config;
  }

  /** Starts the owner and resolves once it serves; rejects with its error (and last log lines) otherwise. */
  static start(o: OwnerProcessOptions): Promise<OwnerProcess> {
    const child = spawn(o.execPath ?? process.execPath, [o.cliPath, "owner"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...(o.env ?? process.env), ELECTRON_RUN_AS_NODE: "1" },
      cwd: dirname(o.cliPath),
      windowsHide: true,
    });
    const tail: string[] = [];
    child.stderr.on(
      "data",
      lineReader((line) => {
        tail.push(line);
        if (tail.length > LOG_TAIL) tail.shift();
        o.onLog?.(line);
      }),
    );
    // A write after the child died must not throw in the extension host.
    child.stdin.on("error", () => undefined);
    // Nothing is written before it serves, so a kill loses nothing (the next owner takes the stale lock over).
    const abort = () => child.kill("SIGKILL");
    o.signal?.addEventListener("abort", abort, { once: true });
    return new Promise<OwnerProcess>((resolve, reject) => {
      let owner: OwnerProcess | null = null;
      child.stdout.on(
        "data",
        lineReader((line) => {
          let event: OwnerEvent;
          try {
            event = JSON.parse(line) as OwnerEvent;
          } catch {
            o.onLog?.(line);
            return;
          }
          if (owner) return owner.onEvent(event);
          if (event.type === "download") o.onDownload?.(event.file, event.percent);
          else if (event.type === "ready") {
            o.signal?.removeEventListener("abort", abort);
            owner = new OwnerProcess(child, event);
            resolve(owner);
          } else if (event.type === "error" && event.fatal) reject(HindsightError.fromWire(event));
        }),
      );
      child.once("error", (err) => reject(new HindsightError("BACKEND_UNAVAILABLE", `the owner process could not start: ${err.message}`, { cause: err })));
      child.once("exit", (code, signal) => {
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        if (owner) return owner.onExit(how, o.onExit);
        reject(new HindsightError("BACKEND_UNAVAILABLE", `the owner process ended (${how}) before it served the store: ${tail.join(" | ") || "no log"}`));
      });
      child.stdin.write(encodeLine({ type: "start", ...o.start }));
    });
  }

  /** The engine configuration the owner runs with (as it last confirmed). */
  get config(): EngineConfig {
    return this.configValue;
  }

  get alive(): boolean {
    return !this.exited;
  }

  /** Sends new engine settings; resolves with the configuration the owner now runs with. */
  reconfigure(config: EngineConfigInput): Promise<EngineConfig> {
    return new Promise((resolve, reject) => {
      if (!this.send({ type: "config", config })) return reject(new Error("the owner process has ended"));
      this.waiting.push({ resolve, reject });
    });
  }

  /** Another extraction model, or none. */
  setLlm(llm: LlmEndpoint | null): void {
    this.send({ type: "llm", llm });
  }

  /** Closes stdin (the owner closes the store and exits); kills it if it has not ended within timeoutMs. */
  async stop(timeoutMs = 20_000): Promise<void> {
    this.stopping = true;
    if (this.exited) return;
    const ended = new Promise<void>((r) => this.exitWaiters.push(r));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    await ended;
    clearTimeout(timer);
  }

  private send(command: OwnerCommand): boolean {
    if (this.exited) return false;
    this.child.stdin.write(encodeLine(command));
    return true;
  }

  private onEvent(event: OwnerEvent): void {
    if (event.type === "config") {
      this.configValue = event.config;
      this.waiting.shift()?.resolve(event.config);
    } else if (event.type === "error" && event.command === "config") {
      this.waiting.shift()?.reject(HindsightError.fromWire(event));
    }
  }

  private onExit(how: string, notify: OwnerProcessOptions["onExit"]): void {
    this.exited = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error(`the owner process ended (${how})`));
    for (const w of this.exitWaiters.splice(0)) w();
    notify?.(how, this.stopping);
  }
}
