import { HistoryEntrySchema, type HistoryEntry } from "../../protocol/model.js";

/**
 * Where the pass-rate history of regression runs lives. The extension keeps it in workspaceState
 * (MementoRunHistory); tests use MemoryRunHistory.
 */
export interface RunHistory {
  /** Oldest first. */
  list(): Promise<HistoryEntry[]>;
  add(entry: HistoryEntry): Promise<void>;
}

/** The part of vscode.Memento this needs (so this file does not import vscode). */
export interface MementoLike {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export const HISTORY_KEY = "hindsight.sidebar.testHistory";
export const HISTORY_MAX = 100;

/** Keeps the last `max` runs in a Memento; entries that no longer parse (an older format) are dropped. */
export class MementoRunHistory implements RunHistory {
  constructor(
    private readonly memento: MementoLike,
    private readonly key = HISTORY_KEY,
    private readonly max = HISTORY_MAX,
  ) {}

  async list(): Promise<HistoryEntry[]> {
    const raw = this.memento.get<unknown>(this.key);
    if (!Array.isArray(raw)) return [];
    return raw.flatMap((e) => {
      const parsed = HistoryEntrySchema.safeParse(e);
      return parsed.success ? [parsed.data] : [];
    });
  }

  async add(entry: HistoryEntry): Promise<void> {
    const next = [...(await this.list()), entry].slice(-this.max);
    await this.memento.update(this.key, next);
  }
}

export class MemoryRunHistory implements RunHistory {
  private readonly entries: HistoryEntry[] = [];

  constructor(private readonly max = HISTORY_MAX) {}

  async list(): Promise<HistoryEntry[]> {
    return [...this.entries];
  }

  async add(entry: HistoryEntry): Promise<void> {
    this.entries.push(entry);
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
  }
}
