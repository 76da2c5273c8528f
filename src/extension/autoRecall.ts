import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type * as vscode from "vscode";
import { INSTRUCTIONS_RELATIVE_PATH, isOurInstructions, renderInstructions } from "./instructions.js";
import type { MemoryService } from "./memoryService.js";

async function readOrNull(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

/**
 * Keeps `.github/instructions/hindsight-memory.instructions.md` in every workspace folder in step
 * with its project's memory profile while hindsight.autoRecall.enabled is on, and removes it when
 * turned off. A file of the same name that we did not write is never touched.
 */
export class AutoRecall implements vscode.Disposable {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly service: MemoryService,
    private readonly intervalMs = 15_000,
  ) {}

  /** Applies the setting now: writes (starting the server if needed) or removes the files. */
  sync(): Promise<void> {
    this.running = this.running.then(() => this.syncOnce()).catch((err: unknown) => this.service.log.warn(`auto-recall instructions: ${(err as Error).message}`));
    this.schedule();
    return this.running;
  }

  private schedule(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (!this.service.settings.autoRecall) return;
    // Agents write through MCP without telling the extension: the profile is re-read periodically.
    this.timer = setInterval(() => void this.sync(), this.intervalMs);
    this.timer.unref();
  }

  private async syncOnce(): Promise<void> {
    const enabled = this.service.settings.autoRecall;
    if (enabled) await this.service.ensureEndpoint();
    for (const folder of this.service.folders()) {
      const path = join(folder.path, INSTRUCTIONS_RELATIVE_PATH);
      const existing = await readOrNull(path);
      if (existing !== null && !isOurInstructions(existing)) {
        this.service.log.warn(`auto-recall: ${path} exists and was not written by hindsight; left alone`);
        continue;
      }
      if (!enabled) {
        if (existing !== null) {
          await rm(path, { force: true });
          this.service.log.info(`auto-recall: removed ${path}`);
        }
        continue;
      }
      const profile = await this.service.profile(folder.scope);
      if (profile === null) continue;
      const text = await renderInstructions(folder.scope, profile);
      if (text === existing) continue;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text, "utf8");
      this.service.log.info(`auto-recall: updated ${path}`);
    }
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
