import { z } from "zod";
import { ScopeSchema } from "../../core/model/memory.js";
import { PROPOSAL_STATUSES } from "../../core/model/proposal.js";
import { many, one, parseBody, parseQuery } from "../query.js";
import type { Route } from "../router.js";

/** `?include=sources`: each proposal as `{ proposal, sources }` with the memories it summarises, read in one call (the review view). */
const ListQuery = z.object({ scope: ScopeSchema.optional(), status: z.array(z.enum(PROPOSAL_STATUSES)).max(4).optional(), include: z.array(z.literal("sources")).max(1).optional() });
const ProposeBody = z.object({ scope: ScopeSchema.optional() });

/** The compression review queue: list, file proposals for groups past the thresholds, approve, reject, roll back. */
export const proposalRoutes: Route[] = [
  {
    method: "GET",
    path: "/proposals",
    handler: async ({ engine, query }) => {
      const q = parseQuery(ListQuery, { scope: one(query, "scope"), status: many(query, "status"), include: many(query, "include") });
      const filter = { ...(q.scope ? { scope: q.scope } : {}), ...(q.status ? { statuses: q.status } : {}) };
      const proposals = q.include ? await engine.listProposalsWithSources(filter) : await engine.listProposals(filter);
      return { json: { proposals, count: proposals.length } };
    },
  },
  {
    method: "POST",
    path: "/proposals",
    handler: async ({ engine, json, call }) => {
      const body = parseBody(ProposeBody, await json());
      const proposals = await engine.proposeCompressions(body.scope, call);
      return { json: { proposals, count: proposals.length } };
    },
  },
  {
    method: "POST",
    path: "/proposals/:id/approve",
    handler: async ({ engine, params, call }) => ({ json: { proposal: await engine.approveProposal(params.id as string, call) } }),
  },
  {
    method: "POST",
    path: "/proposals/:id/reject",
    handler: async ({ engine, params, call }) => ({ json: { proposal: await engine.rejectProposal(params.id as string, call) } }),
  },
  {
    method: "POST",
    path: "/proposals/:id/rollback",
    handler: async ({ engine, params, call }) => ({ json: { proposal: await engine.rollbackProposal(params.id as string, call) } }),
  },
];
