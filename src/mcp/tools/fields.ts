import { z } from "zod";
import { LIMITS } from "../../core/model/inputs.js";
import { LAYERS, MEMORY_TYPES } from "../../core/model/memory.js";
import { OMITTED_SCOPE } from "../guidance.js";

/**
 * Argument pieces shared by the tools. They carry no transforms (the SDK turns them into JSON
 * Schema for clients); the engine re-validates and normalises everything it receives.
 */
export const MAX_ARRAY = 20;

export const scopeArg = () =>
  z
    .string()
    .min(3)
    .max(200)
    .regex(/^(project|user|team):\S+$/, "must look like project:<id>, user:<id> or team:<id>")
    .describe(`Memory namespace: project:<id>, user:<id> or team:<id>. ${OMITTED_SCOPE}`);

export const memoryTypeArg = () => z.enum(MEMORY_TYPES);
export const layerArg = () => z.enum(LAYERS);

export const isoTimeArg = (what: string) =>
  z
    .string()
    .max(40)
    .describe(`${what} ISO-8601 date or date-time, e.g. 2026-03-20 or 2026-03-20T00:00:00Z.`);

export const sessionIdArg = () =>
  z
    .string()
    .min(1)
    .max(200)
    .describe("Conversation/session id (optional): a turn is understood with the question asked just before it in the same session.");

export { LIMITS };

/** Output pieces. Times are ISO-8601 strings. */
export const memoryTypeOut = z.enum(MEMORY_TYPES);
