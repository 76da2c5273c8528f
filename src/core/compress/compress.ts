import type { EngineContext } from "../context.js";
import { HindsightError } from "../errors.js";
import { guardText } from "../guard/index.js";
import { searchText, type MemoryRecord } from "../model/memory.js";
import type { CompressionProposal } from "../model/proposal.js";
import { audit, newRecord } from "../write/writer.js";
import { summarise } from "./summarize.js";

const DAY = 86_400_000;

function groupKey(m: MemoryRecord): string {
  return `${m.subject.trim().toLowerCase()}\u0000${m.type}`;
}

/**
 * Files a proposal for every scope+subject+type group that has grown past the thresholds and is
 * not already waiting for review. Working memory and pinned memories are never compressed.
 */
export async function proposeCompressions(ctx: EngineContext, scope: string): Promise<CompressionProposal[]> {
  const now = ctx.clock.now();
  const { moreThanItems, moreThanDays } = ctx.config.compression;
  const active = await ctx.store.listMemories({ scope, statuses: ["active"], layers: ["L2", "L3"], validAt: now });
  const pending = await ctx.store.listProposals({ scope, statuses: ["pending"] });
  const queued = new Set(pending.flatMap((p) => p.sourceIds));
  const groups = new Map<string, MemoryRecord[]>();
  for (const m of active) {
    if (m.pinned || queued.has(m.id)) continue;
    const list = groups.get(groupKey(m)) ?? [];
    list.push(m);
    groups.set(groupKey(m), list);
  }
  const filed: CompressionProposal[] = [];
  for (const members of groups.values()) {
    const times = members.map((m) => m.confirmedAt);
    const spanDays = (Math.max(...times) - Math.min(...times)) / DAY;
    if (members.length <= moreThanItems || spanDays <= moreThanDays) continue;
    const first = members[0] as MemoryRecord;
    filed.push(await fileProposal(ctx, scope, members, `${members.length} ${first.type} memories about "${first.subject}" over ${Math.round(spanDays)} days`));
  }
  return filed;
}

export async function fileProposal(ctx: EngineContext, scope: string, members: MemoryRecord[], reason: string): Promise<CompressionProposal> {
  const first = members[0];
  if (!first) throw new HindsightError("INVALID_INPUT", "a compression needs at least one memory", { field: "source_ids" });
  const summary = await summarise(ctx, members);
  const proposal: CompressionProposal = {
    id: ctx.newId(),
    scope,
    subject: first.subject,
    type: first.type,
    sourceIds: members.map((m) => m.id),
    summary: summary.text,
    summarizer: summary.summarizer,
    status: "pending",
    reason: summary.fallbackReason ? `${reason}; ${summary.fallbackReason}` : reason,
    createdAt: ctx.clock.now(),
    decidedAt: null,
    summaryId: null,
  };
  await ctx.store.putProposal(proposal);
  await audit(ctx, "compress", scope, proposal.sourceIds, [], `proposed compression ${proposal.id} of ${members.length} memories`);
  return proposal;
}

async function proposalIn(ctx: EngineContext, id: string, expected: CompressionProposal["status"]): Promise<CompressionProposal> {
  const p = await ctx.store.getProposal(id);
  if (!p) throw new HindsightError("NOT_FOUND", `no compression proposal with id ${id}`, { field: "id" });
  if (p.status !== expected) throw new HindsightError("INVALID_INPUT", `proposal ${id} is ${p.status}, not ${expected}`, { field: "id" });
  return p;
}

/** Approval: the summary becomes a memory; the originals are archived with a link to it. */
export async function approveProposal(ctx: EngineContext, id: string): Promise<CompressionProposal> {
  let p = await proposalIn(ctx, id, "pending");
  if (p.summaryId) {
    // An earlier approval of it stopped half-way: finish or undo that one first.
    await finishInterruptedCompressions(ctx);
    const now = await ctx.store.getProposal(id);
    if (now?.status === "approved") return now;
    p = await proposalIn(ctx, id, "pending");
  }
  const now = ctx.clock.now();
  const sources = (await ctx.store.getMemories(p.sourceIds)).filter((m) => m.status === "active");
  if (sources.length === 0) throw new HindsightError("INVALID_INPUT", `proposal ${id}: its memories have since been superseded, archived or forgotten`, { field: "id" });
  // A proposal may have waited in the queue since before the guard's rules changed.
  const verdict = await guardText(p.summary);
  if (verdict.kind !== "ok") {
    await audit(ctx, "refuse", p.scope, p.sourceIds, [], `approve compression ${id}: summary ${verdict.reason}`);
    throw new HindsightError("GUARD_REFUSED", `proposal ${id}: the summary ${verdict.reason}; reject it and summarise again`, { field: "id" });
  }
  const summary = newRecord(
    ctx,
    {
      content: p.summary,
      scope: p.scope,
      type: p.type,
      subject: p.subject,
      confidence: Math.max(...sources.map((m) => m.confidence)),
      validUntil: null,
      layer: "L3",
      tags: ["summary"],
      source: "extractor",
      sourceTurns: [...new Set(sources.flatMap((m) => m.sourceTurns))],
      sourceRefs: [...new Set(sources.flatMap((m) => m.sourceRefs))],
    },
    now,
  );
  const [vector] = await ctx.embedder.embed([searchText(summary)]);
  // The intent first: a pending proposal that names its summary is an approval under way, which
  // finishInterruptedCompressions completes (summary stored) or undoes (not stored) after a crash.
  await ctx.store.putProposal({ ...p, summaryId: summary.id });
  await ctx.store.putMemories([{ record: summary, vector: vector as Float32Array }]);
  await archiveInto(ctx, sources, summary.id, now);
  const approved: CompressionProposal = { ...p, status: "approved", decidedAt: now, summaryId: summary.id, sourceIds: sources.map((m) => m.id) };
  await ctx.store.putProposal(approved);
  await audit(ctx, "compress", p.scope, [summary.id, ...approved.sourceIds], [], `approved compression ${id}`);
  return approved;
}

export async function rejectProposal(ctx: EngineContext, id: string): Promise<CompressionProposal> {
  const p = await proposalIn(ctx, id, "pending");
  const rejected: CompressionProposal = { ...p, status: "rejected", decidedAt: ctx.clock.now() };
  await ctx.store.putProposal(rejected);
  await audit(ctx, "compress", p.scope, [], [], `rejected compression ${id}`);
  return rejected;
}

function archiveInto(ctx: EngineContext, sources: MemoryRecord[], summaryId: string, now: number): Promise<void> {
  return ctx.store.updateMemories(sources.map((m) => ({ ...m, status: "archived" as const, compressedInto: summaryId, statusReason: `compressed into ${summaryId}`, updatedAt: now })));
}

/**
 * Completes what a crash cut short, so a compression is either applied or not, never half: an
 * approval whose summary was stored archives the originals still active and is approved; one whose
 * summary was not is pending again. A rollback that restored the originals archives the summary.
 * Between the steps nothing is lost: the originals stay readable until the summary exists, and the
 * summary until the originals are back (at worst both are briefly active).
 */
export async function finishInterruptedCompressions(ctx: EngineContext): Promise<number> {
  let finished = 0;
  const now = ctx.clock.now();
  for (const p of await ctx.store.listProposals({ statuses: ["pending", "approved"] })) {
    if (!p.summaryId) continue;
    const [summary] = await ctx.store.getMemories([p.summaryId]);
    if (p.status === "pending") {
      if (summary) {
        const sources = (await ctx.store.getMemories(p.sourceIds)).filter((m) => m.status === "active");
        await archiveInto(ctx, sources, p.summaryId, now);
        await ctx.store.putProposal({ ...p, status: "approved", decidedAt: summary.createdAt });
      } else await ctx.store.putProposal({ ...p, summaryId: null });
      finished++;
      continue;
    }
    const originals = await ctx.store.getMemories(p.sourceIds);
    const restored = originals.length > 0 && originals.every((m) => m.compressedInto === null && m.status === "active");
    if (summary && summary.status === "active" && restored) {
      await ctx.store.updateMemories([{ ...summary, status: "archived", statusReason: `compression ${p.id} rolled back`, updatedAt: now }]);
      await ctx.store.putProposal({ ...p, status: "rolled_back", decidedAt: now });
      finished++;
    }
  }
  if (finished > 0) await audit(ctx, "compress", null, [], [], `finished ${finished} compression decisions a crash had interrupted`);
  return finished;
}

/** Rollback of an approved compression: the originals are active again, then the summary is archived (see finishInterruptedCompressions). */
export async function rollbackProposal(ctx: EngineContext, id: string): Promise<CompressionProposal> {
  const p = await proposalIn(ctx, id, "approved");
  const now = ctx.clock.now();
  const originals = await ctx.store.getMemories(p.sourceIds);
  await ctx.store.updateMemories(
    originals.filter((m) => m.compressedInto === p.summaryId).map((m) => ({ ...m, status: "active" as const, compressedInto: null, statusReason: null, updatedAt: now })),
  );
  if (p.summaryId) {
    const [summary] = await ctx.store.getMemories([p.summaryId]);
    if (summary) await ctx.store.updateMemories([{ ...summary, status: "archived", statusReason: `compression ${id} rolled back`, updatedAt: now }]);
  }
  const rolledBack: CompressionProposal = { ...p, status: "rolled_back", decidedAt: now };
  await ctx.store.putProposal(rolledBack);
  await audit(ctx, "compress", p.scope, p.sourceIds, [], `rolled back compression ${id}`);
  return rolledBack;
}

export interface SummarizeResult {
  summary: string;
  summarizer: "llm" | "extractive";
  sourceIds: string[];
  /** The proposal filed for review when `propose` was set. */
  proposal: CompressionProposal | null;
}
