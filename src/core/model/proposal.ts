import { z } from "zod";
import { EpochMs, MemoryTypeSchema, ScopeSchema } from "./memory.js";

export const PROPOSAL_STATUSES = ["pending", "approved", "rejected", "rolled_back"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export const SUMMARIZERS = ["llm", "extractive"] as const;

/** A compression waiting in the review queue: nothing changes until a person approves it. */
export const CompressionProposalSchema = z.object({
  id: z.string().min(1),
  scope: ScopeSchema,
  subject: z.string(),
  type: MemoryTypeSchema,
  /** The memories the summary replaces (archived on approval, restored on rollback). */
  sourceIds: z.array(z.string()),
  summary: z.string(),
  summarizer: z.enum(SUMMARIZERS),
  status: z.enum(PROPOSAL_STATUSES),
  reason: z.string(),
  createdAt: EpochMs,
  decidedAt: EpochMs.nullable(),
  /** The memory created on approval. */
  summaryId: z.string().nullable(),
});

export type CompressionProposal = z.output<typeof CompressionProposalSchema>;
