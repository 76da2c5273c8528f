import { HindsightError, type ErrorCode } from "../../core/errors.js";
import type { Logger } from "../../core/ports.js";
import { OpenAiCompatibleClient } from "../../llm/openaiCompatible.js";
import { startLocalMemory, type LocalMemory } from "../../server/localOwner.js";
import { encodeLine, lineReader, parseCommand, type LlmEndpoint, type OwnerCommand, type OwnerEvent, type OwnerStart } from "../../server/ownerControl.js";
import { OwnerLock } from "../../server/ownerLock.js";
import { stderrLogger } from "../../server/runtime.js";

function emit(event: OwnerEvent): void {
  process.stdout.write(encodeLine(event));
}

function errorCode(err: unknown): ErrorCode {
  return HindsightError.is(err) ? err.code : "INTERNAL";
}

const llmClient = (llm: LlmEndpoint | null) => (llm ? new OpenAiCompatibleClient({ baseUrl: llm.url, model: llm.model, ...(llm.apiKey ? { apiKey: llm.apiKey } : {}), timeoutMs: 60_000 }) : null);

/** Logs go to stderr (the extension copies them into its output channel, by level); stdout is the event channel. */
const logger: Logger = { ...stderrLogger(true), debug: () => undefined };

/**
 * `hindsight owner`: the store owner the VS Code extension starts as its child. It reads a start line
 * and later settings on stdin and reports on stdout (src/server/ownerControl.ts); when stdin closes
 * (the editor quit or crashed) it closes the store and exits. Not meant to be run by hand.
 */
export async function ownerCommand(): Promise<number> {
  let memory: LocalMemory | null = null;
  let starting: Promise<void> | null = null;
  let closing = false;
  return new Promise<number>((resolve) => {
    const finish = (code: number) => {
      if (closing) return;
      closing = true;
      // An open stdin would keep the process alive after a signal.
      process.stdin.destroy();
      // A start in progress finishes first, so its lock and store are released too.
      void Promise.resolve(starting)
        .catch(() => undefined)
        .then(() => memory?.close())
        .then(
          () => resolve(code),
          (err: unknown) => {
            logger.error("closing the store failed", { error: String(err) });
            resolve(1);
          },
        );
    };
    const start = async (spec: OwnerStart) => {
      const sessionToken = OwnerLock.newToken();
      try {
        memory = await startLocalMemory({
          storePath: spec.storePath,
          modelPath: spec.modelDir,
          ...(spec.modelId ? { modelId: spec.modelId } : {}),
          allowDownload: spec.allowDownload,
          ...(spec.remoteHost ? { remoteHost: spec.remoteHost } : {}),
          cacheDir: spec.cacheDir,
          config: spec.config,
          port: spec.port,
          tokens: [sessionToken, ...spec.tokens],
          logger,
          llm: llmClient(spec.llm),
          onDownload: (file, percent) => emit({ type: "download", file, percent }),
        });
        emit({ type: "ready", url: memory.server.url, token: sessionToken, pid: process.pid, config: memory.engine.config });
      } catch (err) {
        emit({ type: "error", code: errorCode(err), message: err instanceof Error ? err.message : String(err), fatal: true, command: "start" });
        finish(1);
      }
    };
    const onLine = (line: string) => {
      let command: OwnerCommand | undefined;
      try {
        command = parseCommand(line);
        if (command.type === "start") {
          if (starting) throw new Error("type: start was already given");
          starting = start(command);
        } else if (!memory) {
          throw new Error(`type: ${command.type} before the store is open`);
        } else if (command.type === "config") {
          emit({ type: "config", config: memory.engine.reconfigure(command.config) });
        } else {
          memory.engine.setLlm(llmClient(command.llm));
        }
      } catch (err) {
        const code = errorCode(err);
        emit({ type: "error", code: code === "INTERNAL" ? "INVALID_INPUT" : code, message: err instanceof Error ? err.message : String(err), fatal: false, ...(command ? { command: command.type } : {}) });
      }
    };
    process.stdin.on("data", lineReader(onLine));
    process.stdin.on("end", () => finish(0));
    process.stdin.on("error", () => finish(0));
    process.on("SIGTERM", () => finish(0));
    process.on("SIGINT", () => finish(0));
  });
}
