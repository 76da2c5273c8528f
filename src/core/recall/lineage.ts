import type { MemoryRecord } from "../model/memory.js";
import type { MemoryFilter, MemoryStore } from "../ports.js";
import { memoryMatches } from "../model/filter.js";

/** How many replacements deep a chain is followed (A replaced by B replaced by C …). */
const MAX_HOPS = 5;

/**
 * The active memory that now holds the slot of each replaced one, by the replaced memory's id.
 *
 * A memory that replaced another answers every question the replaced one answered: they are the
 * same attribute of the same thing, and the newer one often names it less plainly ("switched from
 * X to Y", "不再用 X 了，改成 Y"). So a question that finds the replaced memory is led to its
 * successor — never to the replaced memory itself. Examples, in no case file: "Which mail provider
 * sends our receipts?" finds the retired "Receipts go out through Mailgun" and is led to "we moved
 * off Mailgun last week, Postmark now"; "发票抬头写什么？" finds the old 抬头 and is led to "抬头改成了分公司的名字".
 * Only heads the filter allows are returned (same scope, still valid, the asked types and layers).
 */
export async function currentHolders(store: MemoryStore, replaced: MemoryRecord[], filter: MemoryFilter): Promise<Map<string, MemoryRecord>> {
  const out = new Map<string, MemoryRecord>();
  const heads: MemoryFilter = { ...filter, statuses: ["active"] };
  let frontier = new Map<string, string[]>(); // successor id -> the replaced ids it stands for
  for (const m of replaced) if (m.supersededBy) standFor(frontier, m.supersededBy, [m.id]);
  for (let hop = 0; hop < MAX_HOPS && frontier.size > 0; hop++) {
    const next = new Map<string, string[]>();
    for (const m of await store.getMemories([...frontier.keys()])) {
      const origins = frontier.get(m.id) ?? [];
      if (m.status === "superseded" && m.supersededBy) standFor(next, m.supersededBy, origins);
      else if (memoryMatches(m, heads)) for (const o of origins) out.set(o, m);
    }
    frontier = next;
  }
  return out;
}

function standFor(frontier: Map<string, string[]>, successor: string, origins: string[]): void {
  frontier.set(successor, [...(frontier.get(successor) ?? []), ...origins]);
}
