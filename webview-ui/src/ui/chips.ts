import { html, type TemplateResult } from "lit";
import type { Recalled } from "../../../src/protocol/model.js";
import { TYPE_NAMES } from "../format.js";

// The four facts about a recalled memory each have their own look (styles.css, "chips"), so they
// are told apart at a glance: the layer a filled badge, the type an outlined label with its icon,
// where relevance came from plain text, the subject an outlined tag.

/** Plain names of the layers; "semantic" and "episodic" are kept for the tooltip. */
const LAYERS: Record<Recalled["layer"], { name: string; hint: string }> = {
  L0: { name: "raw turn", hint: "L0: a conversation turn as it was said (nothing distilled was relevant)" },
  L1: { name: "working", hint: "L1, working memory: where a task of this session stands" },
  L2: { name: "episodic", hint: "L2, episodic memory: something that happened" },
  L3: { name: "long-term", hint: "L3, semantic memory: a fact, preference or constraint kept long-term" },
};

const TYPE_ICONS: Record<string, string> = { fact: "info", preference: "heart", constraint: "lock", event: "calendar", task_state: "tasklist" };

/** What each relevance source means, as the chip says it and its tooltip explains it. */
export const SOURCES: Record<Recalled["relevanceSource"], { label: string; icon: string; hint: string }> = {
  fused: {
    label: "vector + full text",
    icon: "combine",
    hint: "Relevance fuses the embedding model's similarity with full-text rank and how many query words the memory contains.",
  },
  "full-text": {
    label: "full text only",
    icon: "whole-word",
    hint: "The embedding model cannot read this query or memory (e.g. Chinese with an English-only model): relevance comes from the words alone — full-text rank and query words found.",
  },
  "cross-encoder": {
    label: "cross-encoder",
    icon: "sparkle",
    hint: "A cross-encoder read the query and the memory together; its score is the relevance.",
  },
  "bi-encoder": {
    label: "vector + full text + second model",
    icon: "combine",
    hint: "Fused vector and full-text relevance, adjusted by a second embedding model's opinion.",
  },
};

export function layerChip(layer: Recalled["layer"]): TemplateResult {
  const l = LAYERS[layer];
  return html`<span class="chip chip-layer" title=${l.hint}><span class="chip-code">${layer}</span> · ${l.name}</span>`;
}

export function typeChip(type: NonNullable<Recalled["type"]>): TemplateResult {
  return html`<span class="chip chip-type" title="type"
    ><span class="codicon codicon-${TYPE_ICONS[type] ?? "symbol-misc"}" aria-hidden="true"></span>${TYPE_NAMES[type] ?? type}</span
  >`;
}

export function sourceChip(source: Recalled["relevanceSource"]): TemplateResult {
  const s = SOURCES[source];
  return html`<span class="chip chip-source source-${source}" title=${s.hint}
    ><span class="codicon codicon-${s.icon}" aria-hidden="true"></span>relevance: ${s.label}</span
  >`;
}

export function subjectTag(subject: string): TemplateResult {
  return html`<span class="chip chip-subject" title="subject: what it is about"><span class="codicon codicon-tag" aria-hidden="true"></span>${subject}</span>`;
}
