import { createInterface } from "node:readline/promises";
import { HindsightError } from "../core/errors.js";

/**
 * Asks a yes/no question before something that cannot be undone. `--yes` answers for scripts; without
 * it the question needs a person at a terminal, and a command run from a script or a pipe is refused
 * (naming --yes) rather than guessed at.
 */
export async function confirm(question: string, options: { yes: boolean; what: string }): Promise<boolean> {
  if (options.yes) return true;
  if (!process.stdin.isTTY) {
    throw new HindsightError("INVALID_INPUT", `--yes: ${options.what}: stdin is not a terminal to ask on; pass --yes to go ahead without asking (nothing was changed)`, { field: "--yes" });
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
