import type { MemoryType } from "./memory.js";

export const PROPOSAL_STATUSES = ["pending", "approved", "rejected", "rolled_back"] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

/** A compression waiting in the review queue: nothing changes until a person approves it. */
export interface CompressionProposal {
  id: string;
  scope: string;
  subject: string;
  type: MemoryType;
  /** The memories the summary replaces (archived on approval, restored on rollback). */
  sourceIds: string[];
  summary: string;
  summarizer: "llm" | "extractive";
  status: ProposalStatus;
  reason: string;
  createdAt: number;
  decidedAt: number | null;
  /** The memory created on approval. */
  summaryId: string | null;
}
