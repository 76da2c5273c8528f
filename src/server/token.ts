import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { HindsightError } from "../core/errors.js";
import { MIN_TOKEN_LENGTH, newToken } from "../http/auth.js";

export const TOKEN_FILE = "server-token";

export interface ServerToken {
  token: string;
  /** "flag" (--token), "env" (HINDSIGHT_TOKEN), "file" (read from the data folder), "generated" (new, just written). */
  source: "flag" | "env" | "file" | "generated";
  path: string | null;
}

/**
 * The server's bearer token: --token, else HINDSIGHT_TOKEN, else the token file in the data folder;
 * on first start a random token is written there with mode 0600 (only the owner may read it).
 */
export async function resolveServerToken(options: { flag?: string | undefined; env?: string | undefined; dataDir: string }): Promise<ServerToken> {
  const explicit = options.flag ?? options.env;
  if (explicit !== undefined && explicit !== "") {
    if (explicit.length < MIN_TOKEN_LENGTH) throw new Error(`the token must have at least ${MIN_TOKEN_LENGTH} characters`);
    return { token: explicit, source: options.flag !== undefined ? "flag" : "env", path: null };
  }
  const path = join(options.dataDir, TOKEN_FILE);
  try {
    const token = (await readFile(path, "utf8")).trim();
    if (token.length >= MIN_TOKEN_LENGTH) {
      if (process.platform !== "win32" && ((await stat(path)).mode & 0o077) !== 0) await chmod(path, 0o600);
      return { token, source: "file", path };
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const token = newToken();
  try {
    await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
    await writeFile(path, `${token}\n`, { mode: 0o600 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EROFS" || code === "EACCES" || code === "EPERM" || code === "ENOSPC") {
      throw new HindsightError("STORE_READ_ONLY", `cannot write the bearer token to ${path} (${code}): pass --token or set HINDSIGHT_TOKEN`, { field: "--token" });
    }
    throw err;
  }
  await chmod(path, 0o600);
  return { token, source: "generated", path };
}
