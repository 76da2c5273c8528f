import { z } from "zod";
import { LIMITS, isoTimeArg, memoryTypeArg, memoryTypeOut, scopeArg } from "./fields.js";
import { defineTool, iso } from "./types.js";

export const memorySummarizeTool = defineTool({
  name: "memory_summarize",
  title: "Summarize memories",
  description:
    "Summarize what is remembered about a topic, or about one subject/type, optionally within a time window, and list the memories it came from. " +
    "Use it to get an overview (\"what do we know about the billing API?\") rather than the few items memory_recall returns. " +
    "With propose: true the summary is filed as a compression proposal that a person reviews; nothing changes until it is approved.",
  inputSchema: {
    topic: z.string().min(1).max(LIMITS.queryChars).optional().describe(`What to summarize, in plain words (1-${LIMITS.queryChars} characters). Omit to select by subject/type.`),
    subject: z.string().min(1).max(LIMITS.subjectChars).optional().describe('Only memories about this subject, e.g. "billing api" (exact, case-insensitive).'),
    type: memoryTypeArg().optional().describe("Only memories of this type."),
    since: isoTimeArg("Only memories stated or confirmed at or after this").optional(),
    until: isoTimeArg("Only memories stated or confirmed at or before this").optional(),
    scope: scopeArg().optional(),
    propose: z.boolean().optional().describe("File the summary as a compression proposal for human review (default false)."),
  },
  outputSchema: {
    summary: z.string().describe("The summary; empty when nothing matched."),
    summarizer: z.enum(["llm", "extractive"]),
    source_ids: z.array(z.string()).describe("Memories the summary is made from."),
    proposal: z
      .object({
        id: z.string(),
        status: z.enum(["pending", "approved", "rejected", "rolled_back"]),
        subject: z.string(),
        type: memoryTypeOut,
        created_at: z.string(),
      })
      .nullable()
      .describe("The proposal filed for review when propose was true."),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(engine, args) {
    const r = await engine.summarize({
      topic: args.topic,
      subject: args.subject,
      type: args.type,
      since: args.since,
      until: args.until,
      scope: args.scope,
      propose: args.propose,
    });
    const proposal = r.proposal
      ? { id: r.proposal.id, status: r.proposal.status, subject: r.proposal.subject, type: r.proposal.type, created_at: iso(r.proposal.createdAt) }
      : null;
    const text =
      r.sourceIds.length === 0
        ? "Nothing to summarize: no memories matched."
        : `${r.summary}\n\nSources: ${r.sourceIds.join(", ")}${proposal ? `\nFiled proposal ${proposal.id} for review.` : ""}`;
    return { structuredContent: { summary: r.summary, summarizer: r.summarizer, source_ids: r.sourceIds, proposal }, content: [{ type: "text", text }] };
  },
});
