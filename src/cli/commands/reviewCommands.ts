import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { MEMORY_TYPES, type MemoryType } from "../../core/model/memory.js";
import { PROPOSAL_STATUSES, type CompressionProposal, type ProposalStatus } from "../../core/model/proposal.js";
import { shortId } from "../../core/ops/shortIds.js";
import { SESSION_OPTIONS, withMemory } from "./engineSession.js";
import { print, printJson } from "../output.js";

const COMMON = { ...SESSION_OPTIONS, json: { type: "boolean" } } as const;

function describe(p: CompressionProposal): string {
  return `${shortId(p.id)}  ${p.status.padEnd(11)} ${p.type} "${p.subject}" (${p.sourceIds.length} memories, ${p.summarizer})\n    ${p.summary}`;
}

/** `hindsight summarize [TOPIC] [--subject S] [--type T] [--since ISO] [--until ISO] [--propose]` */
export async function summarizeCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { ...COMMON, subject: { type: "string" }, type: { type: "string" }, since: { type: "string" }, until: { type: "string" }, propose: { type: "boolean" } },
  });
  if (values.type !== undefined && !(MEMORY_TYPES as readonly string[]).includes(values.type)) {
    throw new HindsightError("INVALID_INPUT", `--type: must be one of ${MEMORY_TYPES.join(", ")}`, { field: "--type" });
  }
  const topic = positionals.join(" ").trim();
  return withMemory(values, async (memory) => {
    const r = await memory.summarize({
      ...(topic ? { topic } : {}),
      ...(values.subject ? { subject: values.subject } : {}),
      ...(values.type ? { type: values.type as MemoryType } : {}),
      ...(values.since ? { since: values.since } : {}),
      ...(values.until ? { until: values.until } : {}),
      propose: values.propose ?? false,
    });
    if (values.json) printJson(r);
    else {
      print(r.summary || "Nothing to summarize.");
      print(`(${r.sourceIds.length} memories, ${r.summarizer}${r.proposal ? `; filed for review as ${shortId(r.proposal.id)}` : ""})`);
    }
    return 0;
  });
}

/** `hindsight review [list|propose|approve ID|reject ID|rollback ID] [--status S]` */
export async function reviewCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...COMMON, status: { type: "string" } } });
  const [action = "list", id] = positionals;
  if (values.status !== undefined && !(PROPOSAL_STATUSES as readonly string[]).includes(values.status)) {
    throw new HindsightError("INVALID_INPUT", `--status: must be one of ${PROPOSAL_STATUSES.join(", ")}`, { field: "--status" });
  }
  const needId = () => {
    if (!id) throw new HindsightError("INVALID_INPUT", `review ${action}: give the proposal id`, { field: "ID" });
    return id;
  };
  return withMemory(values, async (memory) => {
    let out: CompressionProposal[];
    if (action === "list") out = await memory.listProposals(values.status ? [values.status as ProposalStatus] : undefined);
    else if (action === "propose") out = await memory.proposeCompressions();
    else if (action === "approve" || action === "reject" || action === "rollback") {
      const [full] = await memory.resolveIds([needId()], "proposal", "ID");
      out = [await memory.decideProposal(full as string, action)];
    }
    else throw new HindsightError("INVALID_INPUT", `review: unknown action "${action}" (list, propose, approve, reject, rollback)`, { field: "action" });
    if (values.json) printJson(out);
    else {
      for (const p of out) print(describe(p));
      print(`${out.length} proposals`);
    }
    return 0;
  });
}
