import { z } from "zod";
import type { EngineContext } from "../context.js";
import { HindsightError } from "../errors.js";
import { MemoryRecordSchema, TurnRecordSchema, searchText, type MemoryRecord, type TurnRecord } from "../model/memory.js";
import { guardFields, guardOptional, REDACTION_MARK, type GuardVerdict } from "../guard/index.js";
import { turnText } from "../model/turnText.js";
import { audit } from "../write/writer.js";
import { fromWire, toWire, wireField } from "../wire.js";

/**
 * JSONL export format, one JSON object per line, field names in the wire's snake_case:
 * - first a header `{"kind":"header","format":"hindsight-jsonl","version":2,...}`,
 * - then every memory of the scope, whatever its status: `{"kind":"memory", ...MemoryRecord}` (no vector),
 * - then every L0 turn: `{"kind":"turn", ...TurnRecord}`.
 * Version 1 files (camelCase names, before the one wire casing) still import.
 * Vectors are never exported: an import embeds again with the importing engine's model.
 */
export const JSONL_FORMAT = "hindsight-jsonl";
export const JSONL_VERSION = 2;

const HeaderLine = z.object({
  kind: z.literal("header"),
  format: z.literal(JSONL_FORMAT),
  version: z.union([z.literal(1), z.literal(JSONL_VERSION)]),
});

const MemoryLine = MemoryRecordSchema.extend({ kind: z.literal("memory") });

const TurnLine = TurnRecordSchema.extend({ kind: z.literal("turn") });

const Line = z.discriminatedUnion("kind", [HeaderLine, MemoryLine, TurnLine]);

export interface ImportLineError {
  /** 1-based line number in the imported text. */
  line: number;
  code: "INVALID_INPUT" | "GUARD_REFUSED";
  message: string;
  field?: string;
}

export interface ImportResult {
  memories: number;
  turns: number;
  /** Records whose id already exists (in the store, or earlier in the same file): left as they are. */
  skipped: Array<{ line: number; id: string }>;
  /** Lines not imported, each with its line number; nothing of such a line was written. */
  errors: ImportLineError[];
  /** Memories and turns written (memories + turns). */
  imported: number;
  /** Imported memories whose export named another embedding model than this store's (all are embedded again either way). */
  reembedded: number;
  /** The same outcome as plain counts. */
  counts: { imported: number; skipped: number; reembedded: number; errors: number };
  /** Memories and turns written under new ids because they were copied from another scope (their links follow them). */
  copied: number;
  /** The scopes those copies came from. */
  copiedFrom: string[];
}

/** Called with (records written so far, records to write). */
export type ImportProgress = (done: number, total: number) => void;

/** Records written per batch on import: also the progress step. */
export const IMPORT_PROGRESS_STEP = 100;

export async function exportJsonl(ctx: EngineContext, scope: string): Promise<string> {
  const memories = (await ctx.store.listMemories({ scope })).sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  const turns = await ctx.store.listTurns({ scope });
  const lines = [
    JSON.stringify(
      toWire({ kind: "header", format: JSONL_FORMAT, version: JSONL_VERSION, scope, model: ctx.model, exportedAt: new Date(ctx.clock.now()).toISOString(), memories: memories.length, turns: turns.length }),
    ),
    ...memories.map((m) => JSON.stringify(toWire({ kind: "memory", ...m }))),
    ...turns.map((t) => JSON.stringify(toWire({ kind: "turn", ...t }))),
  ];
  return `${lines.join("\n")}\n`;
}

type Parsed = { line: number; memory: MemoryRecord } | { line: number; turn: TurnRecord };

function parseLine(text: string, line: number): Parsed | ImportLineError | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { line, code: "INVALID_INPUT", message: `line ${line}: not valid JSON (${(err as Error).message})` };
  }
  // Version 2 lines are snake_case; version 1 lines are camelCase, which reading leaves as it is.
  const read = fromWire(json);
  const result = Line.safeParse("value" in read ? read.value : json);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue && issue.path.length > 0 ? wireField(issue.path.map(String).join(".")) : "kind";
    return { line, code: "INVALID_INPUT", message: `line ${line}: ${field}: ${issue?.message ?? "invalid record"}`, field };
  }
  const value = result.data;
  if (value.kind === "header") return null;
  if (value.kind === "memory") {
    const { kind: _kind, ...memory } = value;
    return { line, memory };
  }
  const { kind: _kind, ...turn } = value;
  return { line, turn };
}

const BATCH = 256;

/** An imported L0 turn as an ingested one would be: secrets redacted, an injected side withheld, either kept out of recall. */
async function guardTurn(t: TurnRecord): Promise<TurnRecord> {
  const [user, assistant, speaker, ref] = await Promise.all([guardOptional(t.user), guardOptional(t.assistant), guardOptional(t.speaker), guardOptional(t.ref)]);
  const kept = (v: GuardVerdict | null, raw: string | null) => (v === null ? raw : v.kind === "injection" ? `${REDACTION_MARK}instruction injection]` : v.redacted);
  const flagged = [user, assistant, speaker, ref].some((v) => v !== null && v.kind !== "ok");
  return {
    ...t,
    user: kept(user, t.user) ?? "",
    assistant: kept(assistant, t.assistant),
    speaker: kept(speaker, t.speaker),
    ref: kept(ref, t.ref),
    status: flagged ? "redacted" : t.status,
  };
}

/**
 * Loads a JSONL export. Every line is validated first; a bad line is reported with its line number
 * and not written, the good ones are. Ids are kept, ids that already exist are skipped, every text
 * field goes through the guard (a secret in a memory refuses the line and is redacted from a turn, an
 * injection quarantines a memory and keeps a turn out of recall), and everything
 * is embedded again with this engine's model. `scope` moves every record into that scope; records
 * moved out of the scope they were exported from are copies and get new ids (see copyIds).
 */
export async function importJsonl(ctx: EngineContext, text: string, scope: string | undefined, onProgress?: ImportProgress): Promise<ImportResult> {
  const errors: ImportLineError[] = [];
  const memories: Array<{ line: number; record: MemoryRecord; from: string; otherModel: boolean }> = [];
  const turns: Array<{ line: number; record: TurnRecord; from: string }> = [];
  const rawLines = text.split(/\r?\n/);
  for (const [i, raw] of rawLines.entries()) {
    if (raw.trim() === "") continue;
    const parsed = parseLine(raw, i + 1);
    if (parsed === null) continue;
    if ("code" in parsed) {
      errors.push(parsed);
      continue;
    }
    if ("memory" in parsed) {
      const record: MemoryRecord = { ...parsed.memory, scope: scope ?? parsed.memory.scope, embeddingModel: ctx.model.id };
      const verdict = await guardFields({ content: record.content, subject: record.subject, tags: record.tags, sourceRefs: record.sourceRefs, context: record.context });
      if (verdict.kind === "secret") {
        errors.push({ line: parsed.line, code: "GUARD_REFUSED", message: `line ${parsed.line}: ${verdict.reason}`, field: verdict.field ?? "content" });
        continue;
      }
      if (verdict.kind === "injection" && record.status !== "quarantined") {
        record.status = "quarantined";
        record.statusReason = verdict.reason;
      }
      memories.push({ line: parsed.line, record, from: parsed.memory.scope, otherModel: parsed.memory.embeddingModel !== ctx.model.id });
    } else {
      turns.push({ line: parsed.line, record: await guardTurn({ ...parsed.turn, scope: scope ?? parsed.turn.scope }), from: parsed.turn.scope });
    }
  }

  const copies = await copyIds(memories, turns);
  await claimIds(ctx, memories, turns);
  const skipped: Array<{ line: number; id: string }> = [];
  const fresh = async <I extends { line: number; record: { id: string } }>(items: I[], existing: (ids: string[]) => Promise<Array<{ id: string }>>) => {
    const taken = new Set<string>();
    for (let i = 0; i < items.length; i += BATCH) {
      for (const r of await existing(items.slice(i, i + BATCH).map((x) => x.record.id))) taken.add(r.id);
    }
    const out: I[] = [];
    for (const item of items) {
      if (taken.has(item.record.id)) skipped.push({ line: item.line, id: item.record.id });
      else {
        taken.add(item.record.id);
        out.push(item);
      }
    }
    return out;
  };
  const newMemories = await fresh(memories, (ids) => ctx.store.getMemories(ids));
  const newTurns = await fresh(turns, (ids) => ctx.store.getTurns(ids));
  const unlinked = await keepLinksInScope(ctx, newMemories.map((m) => m.record), newTurns.map((t) => t.record));

  const total = newMemories.length + newTurns.length;
  let done = 0;
  const step = IMPORT_PROGRESS_STEP;
  for (let i = 0; i < newMemories.length; i += step) {
    const batch = newMemories.slice(i, i + step).map((x) => x.record);
    const vectors = await ctx.embedder.embed(batch.map(searchText));
    if (vectors.length !== batch.length) throw new HindsightError("MODEL_UNAVAILABLE", "the embedder returned fewer vectors than texts");
    await ctx.store.putMemories(batch.map((record, j) => ({ record, vector: vectors[j] as Float32Array })));
    done += batch.length;
    onProgress?.(done, total);
  }
  for (let i = 0; i < newTurns.length; i += step) {
    const batch = newTurns.slice(i, i + step).map((x) => x.record);
    const vectors = await ctx.embedder.embed(batch.map(turnText));
    if (vectors.length !== batch.length) throw new HindsightError("MODEL_UNAVAILABLE", "the embedder returned fewer vectors than texts");
    await ctx.store.putTurns(batch.map((record, j) => ({ record, vector: vectors[j] as Float32Array })));
    done += batch.length;
    onProgress?.(done, total);
  }
  if (total === 0) onProgress?.(0, 0);
  skipped.sort((a, b) => a.line - b.line);
  errors.sort((a, b) => a.line - b.line);

  const scopes = new Set([...newMemories.map((m) => m.record.scope), ...newTurns.map((t) => t.record.scope)]);
  await audit(
    ctx,
    "write",
    scope ?? (scopes.size === 1 ? [...scopes][0] ?? null : null),
    newMemories.map((m) => m.record.id),
    newTurns.map((t) => t.record.id),
    `imported ${newMemories.length} memories and ${newTurns.length} turns from JSONL; skipped ${skipped.length} existing ids; ${errors.length} lines refused; ${unlinked} links outside the scope dropped`,
  );
  const reembedded = newMemories.filter((m) => m.otherModel).length;
  const copiedFrom = [...new Set([...newMemories, ...newTurns].filter((x) => copies.has(x.record.id)).map((x) => x.from))].sort();
  const copied = newMemories.filter((m) => copies.has(m.record.id)).length + newTurns.filter((t) => copies.has(t.record.id)).length;
  return {
    memories: newMemories.length,
    turns: newTurns.length,
    skipped,
    errors,
    imported: total,
    reembedded,
    counts: { imported: total, skipped: skipped.length, reembedded, errors: errors.length },
    copied,
    copiedFrom,
  };
}

/**
 * The id a record copied from another scope gets: derived from the target scope and its own id, so
 * the source project's records stay as they are while importing the same file into the same scope
 * again finds the copies and skips them, as it does the originals. UUID-shaped like the engine's ids.
 */
export async function copyId(scope: string, id: string): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(`hindsight-copy\n${scope}\n${id}`)));
  const bytes = digest.slice(0, 16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x80;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Gives every record that moves into another scope than the file's its copy id (see copyId), and
 * points the file's links (supersedes, supersededBy, conflictsWith, compressedInto, sourceTurns, a
 * turn's memoryIds) at the copies. Returns the new ids.
 */
async function copyIds(memories: Array<{ record: MemoryRecord; from: string }>, turns: Array<{ record: TurnRecord; from: string }>): Promise<Set<string>> {
  const memoryIds = new Map<string, string>();
  const turnIds = new Map<string, string>();
  for (const item of memories) if (item.record.scope !== item.from) memoryIds.set(item.record.id, await copyId(item.record.scope, item.record.id));
  for (const item of turns) if (item.record.scope !== item.from) turnIds.set(item.record.id, await copyId(item.record.scope, item.record.id));
  if (memoryIds.size === 0 && turnIds.size === 0) return new Set();
  relink(memories, turns, memoryIds, turnIds);
  return new Set([...memoryIds.values(), ...turnIds.values()]);
}

/** Renames records and every link of the file that names them (ids not in a map stay as they are). */
function relink(memories: Array<{ record: MemoryRecord }>, turns: Array<{ record: TurnRecord }>, memoryIds: Map<string, string>, turnIds: Map<string, string>): void {
  const m = (id: string): string => memoryIds.get(id) ?? id;
  const t = (id: string): string => turnIds.get(id) ?? id;
  for (const item of memories) {
    const r = item.record;
    item.record = {
      ...r,
      id: m(r.id),
      sourceTurns: r.sourceTurns.map(t),
      supersedes: r.supersedes.map(m),
      supersededBy: r.supersededBy === null ? null : m(r.supersededBy),
      conflictsWith: r.conflictsWith.map(m),
      compressedInto: r.compressedInto === null ? null : m(r.compressedInto),
    };
  }
  for (const item of turns) item.record = { ...item.record, id: t(item.record.id), memoryIds: item.record.memoryIds.map(m) };
}


/**
 * An id another project already uses is neither confirmed nor touched: the imported record gets a
 * new id (and the file's own references to it follow), exactly as if the id were free.
 */
async function claimIds(ctx: EngineContext, memories: Array<{ record: MemoryRecord }>, turns: Array<{ record: TurnRecord }>): Promise<void> {
  const renamed = async <T extends { id: string; scope: string }>(items: Array<{ record: T }>, existing: (ids: string[]) => Promise<Array<{ id: string; scope: string }>>) => {
    const map = new Map<string, string>();
    for (let i = 0; i < items.length; i += BATCH) {
      const batch = items.slice(i, i + BATCH);
      const held = new Map((await existing(batch.map((x) => x.record.id))).map((r) => [r.id, r.scope]));
      for (const item of batch) {
        const scope = held.get(item.record.id);
        if (scope !== undefined && scope !== item.record.scope) {
          map.set(item.record.id, ctx.newId());
        }
      }
    }
    return map;
  };
  const memoryIds = await renamed(memories, (ids) => ctx.store.getMemories(ids));
  const turnIds = await renamed(turns, (ids) => ctx.store.getTurns(ids));
  if (memoryIds.size === 0 && turnIds.size === 0) return;
  relink(memories, turns, memoryIds, turnIds);
}

/**
 * Links are kept only to records of the same scope, in the file or already stored: a link or a
 * source turn naming another project's record (or nothing) is dropped, with the same outcome
 * either way so an import cannot probe other projects. Returns how many were dropped.
 */
async function keepLinksInScope(ctx: EngineContext, memories: MemoryRecord[], turns: TurnRecord[]): Promise<number> {
  const memoryScope = new Map(memories.map((r) => [r.id, r.scope]));
  const turnScope = new Map(turns.map((r) => [r.id, r.scope]));
  const outsideMemories = new Set<string>();
  const outsideTurns = new Set<string>();
  for (const r of memories) {
    for (const id of [...r.supersedes, ...r.conflictsWith, ...(r.supersededBy ? [r.supersededBy] : []), ...(r.compressedInto ? [r.compressedInto] : [])]) if (!memoryScope.has(id)) outsideMemories.add(id);
    for (const id of r.sourceTurns) if (!turnScope.has(id)) outsideTurns.add(id);
  }
  for (const r of turns) for (const id of r.memoryIds) if (!memoryScope.has(id)) outsideMemories.add(id);
  for (let i = 0, ids = [...outsideMemories]; i < ids.length; i += BATCH) for (const r of await ctx.store.getMemories(ids.slice(i, i + BATCH))) memoryScope.set(r.id, r.scope);
  for (let i = 0, ids = [...outsideTurns]; i < ids.length; i += BATCH) for (const r of await ctx.store.getTurns(ids.slice(i, i + BATCH))) turnScope.set(r.id, r.scope);

  let dropped = 0;
  const keep = (ids: string[], scopes: Map<string, string>, scope: string): string[] => {
    const kept = ids.filter((id) => scopes.get(id) === scope);
    dropped += ids.length - kept.length;
    return kept;
  };
  const keepOne = (id: string | null, scope: string): string | null => (id === null ? null : (keep([id], memoryScope, scope)[0] ?? null));
  for (const r of memories) {
    r.sourceTurns = keep(r.sourceTurns, turnScope, r.scope);
    r.supersedes = keep(r.supersedes, memoryScope, r.scope);
    r.conflictsWith = keep(r.conflictsWith, memoryScope, r.scope);
    r.supersededBy = keepOne(r.supersededBy, r.scope);
    r.compressedInto = keepOne(r.compressedInto, r.scope);
  }
  for (const r of turns) r.memoryIds = keep(r.memoryIds, memoryScope, r.scope);
  return dropped;
}
