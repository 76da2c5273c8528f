import * as vscode from "vscode";
import type { IngestResult } from "../../core/write/ingest.js";
import type { WriteResult } from "../../core/write/writer.js";
import type { RecallResult } from "../../core/recall/types.js";
import type { ForgetResult } from "../../core/forget/forget.js";
import type { MemoryService } from "../memoryService.js";

/** An explicit memory may hold this many characters; a longer selection goes through the extractor. */
const WRITE_LIMIT = 4000;
const INGEST_LIMIT = 20000;

export interface RememberArgs {
  text?: string;
  scope?: string;
}

/** Hindsight: Remember Selection — the selection (or `args.text`) as an explicit memory of the active project. */
export async function rememberSelection(service: MemoryService, args: RememberArgs = {}): Promise<WriteResult | IngestResult | undefined> {
  const editor = vscode.window.activeTextEditor;
  const text = (args.text ?? (editor ? editor.document.getText(editor.selection) : "")).trim();
  if (!text) {
    void vscode.window.showWarningMessage("Hindsight: select the text to remember first.");
    return undefined;
  }
  if (text.length > INGEST_LIMIT) {
    void vscode.window.showErrorMessage(`Hindsight: the selection has ${text.length} characters; at most ${INGEST_LIMIT} can be remembered at once.`);
    return undefined;
  }
  const scope = args.scope ?? service.activeScope();
  const client = await service.client();
  if (text.length <= WRITE_LIMIT) {
    const r = await client.json<WriteResult>("POST", "/memories", { content: text, scope });
    const say = r.flagged ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void say(`Hindsight: ${r.action}${r.reason ? ` — ${r.reason}` : ""}`);
    return r;
  }
  // Too long for one memory: the extractor splits it into standalone statements.
  const r = await client.json<IngestResult>("POST", "/ingest", { user: text, scope });
  const kept = r.results.filter((x) => x.id !== null).length;
  void vscode.window.showInformationMessage(`Hindsight: remembered ${kept} statement(s) from the selection (extractor: ${r.extractor}${r.fallbackReason ? `, ${r.fallbackReason}` : ""}).`);
  return r;
}

export interface RecallArgs {
  query?: string;
  scope?: string;
  k?: number;
}

/** Hindsight: Recall… — what the agent would get for a query, in a quick pick. */
export async function recall(service: MemoryService, args: RecallArgs = {}): Promise<RecallResult | undefined> {
  const query = args.query ?? (await vscode.window.showInputBox({ title: "Hindsight: Recall", prompt: "What should memory recall?", ignoreFocusOut: true }));
  if (!query?.trim()) return undefined;
  const client = await service.client();
  const result = await client.json<RecallResult>("POST", "/recall", { query, scope: args.scope ?? service.activeScope(), k: args.k ?? 10 });
  if (args.query === undefined) {
    const items = result.memories.map((m) => ({
      label: m.content,
      description: `${m.type} · score ${m.score.toFixed(2)}`,
      detail: `relevance ${m.factors.relevance.toFixed(2)} (${m.relevanceSource}) · confidence ${m.factors.confidence.toFixed(2)} · decay ${m.factors.timeDecay.toFixed(2)} · access ${m.factors.accessBoost.toFixed(2)}`,
    }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage(result.usedFallback ? "Hindsight: no memory matched; raw conversation lines answered instead." : "Hindsight: nothing relevant is remembered.");
    } else {
      const pick = await vscode.window.showQuickPick(items, { title: `Recall: ${query}`, matchOnDescription: true, matchOnDetail: true, placeHolder: "Pick one to copy it" });
      if (pick) await vscode.env.clipboard.writeText(pick.label);
    }
  }
  return result;
}

export interface ForgetArgs {
  query?: string;
  ids?: string[];
  scope?: string;
  /** Skip the confirmation (automation; the command palette always asks). */
  confirm?: boolean;
}

/** Hindsight: Forget… — find memories by a query, pick which go, confirm, forget (with the L0 lines that held them). */
export async function forget(service: MemoryService, args: ForgetArgs = {}): Promise<ForgetResult | undefined> {
  const scope = args.scope ?? service.activeScope();
  const client = await service.client();
  let ids = args.ids;
  if (!ids) {
    const query = args.query ?? (await vscode.window.showInputBox({ title: "Hindsight: Forget", prompt: "Which memories should be forgotten? Describe them.", ignoreFocusOut: true }));
    if (!query?.trim()) return undefined;
    if (args.confirm) return client.json<ForgetResult>("POST", "/forget", { query, scope });
    const found = await client.json<RecallResult>("POST", "/recall", { query, scope, k: 20 });
    if (found.memories.length === 0) {
      void vscode.window.showInformationMessage("Hindsight: no memory matches that.");
      return undefined;
    }
    const picks = await vscode.window.showQuickPick(
      found.memories.filter((m) => m.layer !== "L0").map((m) => ({ label: m.content, description: `${m.type ?? "conversation line"} · relevance ${m.factors.relevance.toFixed(2)}`, id: m.id, picked: m.factors.relevance >= 0.5 })),
      { title: "Forget which memories?", canPickMany: true, ignoreFocusOut: true },
    );
    if (!picks || picks.length === 0) return undefined;
    ids = picks.map((p) => p.id);
  }
  if (ids.length === 0) return undefined;
  if (!args.confirm) {
    const ok = await vscode.window.showWarningMessage(`Forget ${ids.length} memor${ids.length === 1 ? "y" : "ies"}? This cannot be undone.`, { modal: true }, "Forget");
    if (ok !== "Forget") return undefined;
  }
  const r = await client.json<ForgetResult>("POST", "/forget", { ids, scope });
  void vscode.window.showInformationMessage(`Hindsight: forgot ${r.forgotten} memor${r.forgotten === 1 ? "y" : "ies"}${r.turns ? ` and ${r.turns} conversation line(s)` : ""}.`);
  return r;
}
