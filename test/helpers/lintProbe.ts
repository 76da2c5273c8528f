import { resolve } from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";

/** The checkout (out/test/helpers → three levels up). */
const ROOT = resolve(__dirname, "../../..");

/**
 * Lints `code` as if it were the file at `filePath` (relative to the checkout) under eslint.config.mjs,
 * and returns "ruleId: message" for each finding. Probe files exist only in memory, so the project
 * service cannot type them: type-aware rules are switched off here, the layer rules are not.
 */
export async function lintProbe(code: string, filePath: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, filePath) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

/**
 * The same with the type-aware rules on: the text stands in for an existing file of the project
 * (`filePath` must exist, or the project service will not type it).
 */
export async function lintTypedProbe(code: string, filePath: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: resolve(ROOT, filePath) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}
