import { z } from "zod";
import type { EngineConfigInput } from "../core/config.js";
import { resolveConfig } from "../core/config.js";
import { HindsightError } from "../core/errors.js";

/** Every `hindsight.*` setting the extension reads, typed. */
export interface HindsightSettings {
  storagePath: string;
  modelPath: string;
  /** The embedding model: multilingual E5 (default) or English-only MiniLM. */
  embeddingModel: string;
  allowModelDownload: boolean;
  modelMirrorUrl: string;
  serverPort: number;
  llm: { useCopilot: boolean; endpointUrl: string; endpointModel: string };
  autoRecall: boolean;
  mode: "local" | "team";
  teamUrl: string;
  /** Engine overrides from the first-class settings and `hindsight.engine`, validated. */
  engine: EngineConfigInput;
}

/** A setting that could not be used: its key and why; the default (or the previous engine config) stands. */
export interface SettingProblem {
  setting: string;
  message: string;
}

const Weights = z.object({ relevance: z.number().min(0).max(1), confidence: z.number().min(0).max(1), timeDecay: z.number().min(0).max(1), access: z.number().min(0).max(1) }).partial().strict();

/** One schema per setting, so a bad value costs only that setting. */
const SETTINGS = {
  storagePath: ["storagePath", z.string(), ""],
  modelPath: ["modelPath", z.string(), ""],
  embeddingModel: ["embeddingModel", z.enum(["Xenova/multilingual-e5-small", "Xenova/all-MiniLM-L6-v2"]), "Xenova/multilingual-e5-small"],
  allowModelDownload: ["allowModelDownload", z.boolean(), true],
  modelMirrorUrl: ["modelMirrorUrl", z.union([z.literal(""), z.url({ protocol: /^https?$/ })]), ""],
  serverPort: ["server.port", z.number().int().min(0).max(65535), 0],
  useCopilot: ["llm.useCopilot", z.boolean(), true],
  endpointUrl: ["llm.endpointUrl", z.union([z.literal(""), z.url({ protocol: /^https?$/ })]), ""],
  endpointModel: ["llm.endpointModel", z.string(), ""],
  autoRecall: ["autoRecall.enabled", z.boolean(), false],
  mode: ["mode", z.enum(["local", "team"]), "local"],
  teamUrl: ["team.url", z.union([z.literal(""), z.url({ protocol: /^https?$/ })]), ""],
  relevanceFloor: ["recall.relevanceFloor", z.number().min(0).max(1), undefined],
  weights: ["recall.weights", Weights, undefined],
  taskStateTtlHours: ["write.taskStateTtlHours", z.number().positive().max(24 * 365), undefined],
  engine: ["engine", z.record(z.string(), z.unknown()), undefined],
} as const satisfies Record<string, readonly [string, z.ZodType, unknown]>;

type Key = keyof typeof SETTINGS;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Deep merge for engine overrides: later objects win per leaf. */
function merge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isPlainObject(v) && isPlainObject(out[k]) ? merge(out[k] as Record<string, unknown>, v) : v;
  return out;
}

/**
 * Reads and validates the settings through `get` (a WorkspaceConfiguration of section "hindsight"
 * in the extension; a plain lookup in tests). Never throws: each bad value is reported by its full
 * key and replaced by its default; an engine configuration the engine refuses is dropped whole.
 */
export function readSettings(get: (key: string) => unknown): { settings: HindsightSettings; problems: SettingProblem[] } {
  const problems: SettingProblem[] = [];
  const value = <K extends Key>(key: K): unknown => {
    const [name, schema, fallback] = SETTINGS[key];
    const raw = get(name);
    if (raw === undefined || raw === null) return fallback;
    const r = (schema as z.ZodType).safeParse(raw);
    if (r.success) return r.data;
    const issue = r.error.issues[0];
    const path = issue && issue.path.length > 0 ? `.${issue.path.join(".")}` : "";
    problems.push({ setting: `hindsight.${name}${path}`, message: issue?.message ?? "invalid value" });
    return fallback;
  };

  let engine: Record<string, unknown> = {};
  const floor = value("relevanceFloor") as number | undefined;
  const weights = value("weights") as Record<string, number> | undefined;
  const ttl = value("taskStateTtlHours") as number | undefined;
  if (floor !== undefined) engine = merge(engine, { recall: { relevanceFloor: floor } });
  if (weights !== undefined) engine = merge(engine, { weights });
  if (ttl !== undefined) engine = merge(engine, { write: { taskStateTtlHours: ttl } });
  const overrides = value("engine") as Record<string, unknown> | undefined;
  if (overrides) {
    // Scope and actor belong to the extension, not to a setting.
    const { defaultScope: _s, actor: _a, ...rest } = overrides;
    engine = merge(engine, rest);
  }
  try {
    resolveConfig(engine);
  } catch (err) {
    const field = HindsightError.is(err) ? err.field : undefined;
    problems.push({ setting: field ? `hindsight.engine.${field}` : "hindsight.engine", message: err instanceof Error ? err.message : String(err) });
    engine = {};
  }

  return {
    settings: {
      storagePath: value("storagePath") as string,
      modelPath: value("modelPath") as string,
      embeddingModel: value("embeddingModel") as string,
      allowModelDownload: value("allowModelDownload") as boolean,
      modelMirrorUrl: value("modelMirrorUrl") as string,
      serverPort: value("serverPort") as number,
      llm: { useCopilot: value("useCopilot") as boolean, endpointUrl: value("endpointUrl") as string, endpointModel: value("endpointModel") as string },
      autoRecall: value("autoRecall") as boolean,
      mode: value("mode") as "local" | "team",
      teamUrl: value("teamUrl") as string,
      engine: engine as EngineConfigInput,
    },
    problems,
  };
}

/** The engine configuration for a project scope: the validated overrides plus the scope and the audit actor. */
export function engineConfigFor(settings: HindsightSettings, scope: string): EngineConfigInput {
  return { ...settings.engine, defaultScope: scope, actor: "vscode" };
}
