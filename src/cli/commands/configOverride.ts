import { resolveConfig, type EngineConfigInput } from "../../core/config.js";
import { HindsightError } from "../../core/errors.js";

/** `--config '{"weights":{"timeDecay":0}}'`: engine configuration overrides, for ablations. */
export function parseConfigOverride(text: string): EngineConfigInput {
  try {
    return resolveConfig(JSON.parse(text)) as EngineConfigInput;
  } catch (err) {
    if (HindsightError.is(err)) throw err;
    throw new HindsightError("INVALID_INPUT", `--config: not valid JSON: ${(err as Error).message}`, { field: "--config" });
  }
}
