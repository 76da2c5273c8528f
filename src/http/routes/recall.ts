import type { ForgetInput, IngestInput, RecallInput, SummarizeInput } from "../../core/model/inputs.js";
import type { Route } from "../router.js";

/** The agent-facing operations: recall, write by ingesting a raw turn, forget by query, summarize. The engine validates each body. */
export const recallRoutes: Route[] = [
  {
    method: "POST",
    path: "/recall",
    // The weights the scores were summed with, so a client can show what each factor contributed.
    handler: async ({ engine, json }) => ({ json: { ...(await engine.recall((await json()) as RecallInput)), weights: engine.config.weights } }),
  },
  {
    method: "POST",
    path: "/ingest",
    handler: async ({ engine, json, call }) => ({ json: await engine.ingest((await json()) as IngestInput, call) }),
  },
  {
    method: "POST",
    path: "/forget",
    handler: async ({ engine, json, call }) => ({ json: await engine.forget((await json()) as ForgetInput, call) }),
  },
  {
    method: "POST",
    path: "/summarize",
    handler: async ({ engine, json, call }) => ({ json: await engine.summarize((await json()) as SummarizeInput, call) }),
  },
];
