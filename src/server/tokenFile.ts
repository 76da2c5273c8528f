import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { HindsightError } from "../core/errors.js";
import { ScopeSchema } from "../core/model/memory.js";
import { parseInput } from "../core/validate.js";
import { ALL_PROJECTS, PERMISSIONS, type Grant } from "../http/access/grant.js";
import { newToken, tokenDigest } from "../http/auth.js";

/**
 * The team server's tokens file (`hindsight serve --tokens FILE`, `hindsight token create|list|revoke`):
 *
 *   { "version": 1, "tokens": [ { "id": "alice", "hash": "sha256:<64 hex>", "scopes": ["read", "write"],
 *     "projects": ["project:github.com/acme/api"], "rate": 20, "burst": 60,
 *     "created_at": "2026-11-30T17:00:00.000Z", "revoked_at": null, "note": "Alice's laptop" } ] }
 *
 * Only the SHA-256 of a token is kept: the token itself is shown once, when it is created. A token is
 * 256 random bits, so a fast hash is enough (nothing is left to guess by brute force). `projects` lists
 * memory scopes (project:…, team:…, user:…) or is ["*"] for every one; `rate`/`burst` are the token's own
 * rate limit (rate 0: none); revoked tokens stay listed (their ids appear in the audit log) but are refused.
 */
export const TOKEN_FILE_VERSION = 1;

/** The prefix of tokens made by `hindsight token create`: recognisable by secret scanners and people. */
export const TOKEN_PREFIX = "hst_";

const TokenIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");

const TokenEntrySchema = z
  .object({
    id: TokenIdSchema,
    hash: z.string().regex(/^sha256:[0-9a-f]{64}$/, 'must be "sha256:" and 64 lowercase hex digits'),
    scopes: z.array(z.enum(PERMISSIONS)).min(1, "must name at least one of read, write, admin"),
    projects: z.union([z.tuple([z.literal(ALL_PROJECTS)]), z.array(ScopeSchema).min(1, 'must name at least one scope, or be ["*"]')]),
    rate: z.number().min(0).optional(),
    burst: z.number().int().min(1).optional(),
    created_at: z.string(),
    revoked_at: z.string().nullable().default(null),
    note: z.string().max(200).optional(),
  })
  .strict();

export type TokenEntry = z.output<typeof TokenEntrySchema>;

const TokenFileSchema = z
  .object({ version: z.literal(TOKEN_FILE_VERSION), tokens: z.array(TokenEntrySchema) })
  .strict()
  .superRefine((file, ctx) => {
    const ids = new Set<string>();
    const hashes = new Set<string>();
    file.tokens.forEach((t, i) => {
      if (ids.has(t.id)) ctx.addIssue({ code: "custom", path: ["tokens", i, "id"], message: `duplicate id ${t.id}` });
      if (hashes.has(t.hash)) ctx.addIssue({ code: "custom", path: ["tokens", i, "hash"], message: "the same token twice" });
      ids.add(t.id);
      hashes.add(t.hash);
    });
  });

export type TokenFile = z.output<typeof TokenFileSchema>;

/** Parses a tokens file's text; a malformed one is INVALID_INPUT naming the field (e.g. tokens[2].scopes). */
export function parseTokenFile(text: string, path: string): TokenFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HindsightError("INVALID_INPUT", `tokens file ${path}: not valid JSON: ${(err as Error).message}`, { field: "tokens" });
  }
  try {
    return parseInput(TokenFileSchema, json, "tokens file");
  } catch (err) {
    if (HindsightError.is(err)) throw new HindsightError(err.code, `${path}: ${err.message}`, { ...(err.field ? { field: err.field } : {}) });
    throw err;
  }
}

/** Reads a tokens file; a missing one is an empty file (so `token create` can start one). */
export async function readTokenFile(path: string, options: { missingOk: boolean } = { missingOk: false }): Promise<TokenFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" && options.missingOk) return { version: TOKEN_FILE_VERSION, tokens: [] };
    if ((err as NodeJS.ErrnoException).code === "ENOENT") {
      throw new HindsightError("INVALID_INPUT", `tokens file ${path} does not exist: create a token with \`hindsight token create --tokens ${path} ...\``, { field: "tokens" });
    }
    throw err;
  }
  return parseTokenFile(text, path);
}

/** Writes the file whole and then renames it over the old one, mode 0600, so a running server never reads half a file. */
export async function writeTokenFile(path: string, file: TokenFile): Promise<void> {
  const checked = parseInput(TokenFileSchema, file, "tokens file");
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(checked, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}

export function hashOf(token: string): string {
  return `sha256:${tokenDigest(token).toString("hex")}`;
}

export interface NewToken {
  id: string;
  scopes: Array<(typeof PERMISSIONS)[number]>;
  projects: string[];
  rate?: number;
  burst?: number;
  note?: string;
}

/** Adds a token to the file and returns it (the only time it exists outside the caller's hands). */
export async function createToken(path: string, spec: NewToken, now: Date): Promise<{ token: string; entry: TokenEntry }> {
  const file = await readTokenFile(path, { missingOk: true });
  const id = parseInput(TokenIdSchema, spec.id, "id");
  if (file.tokens.some((t) => t.id === id)) throw new HindsightError("INVALID_INPUT", `a token with id ${id} exists already (revoke it or pick another id)`, { field: "id" });
  const token = `${TOKEN_PREFIX}${newToken()}`;
  const entry = parseInput(
    TokenEntrySchema,
    {
      id,
      hash: hashOf(token),
      scopes: [...new Set(spec.scopes)],
      projects: spec.projects.includes(ALL_PROJECTS) ? [ALL_PROJECTS] : [...new Set(spec.projects)],
      ...(spec.rate !== undefined ? { rate: spec.rate } : {}),
      ...(spec.burst !== undefined ? { burst: spec.burst } : {}),
      created_at: now.toISOString(),
      revoked_at: null,
      ...(spec.note ? { note: spec.note } : {}),
    },
    "token",
  );
  await writeTokenFile(path, { ...file, tokens: [...file.tokens, entry] });
  return { token, entry };
}

/** Marks a token revoked (it stays listed); a server watching the file refuses it within a second. */
export async function revokeToken(path: string, id: string, now: Date): Promise<TokenEntry> {
  const file = await readTokenFile(path);
  const entry = file.tokens.find((t) => t.id === id);
  if (!entry) throw new HindsightError("NOT_FOUND", `no token with id ${id} in ${path}`, { field: "id" });
  if (entry.revoked_at !== null) return entry;
  const revoked = { ...entry, revoked_at: now.toISOString() };
  await writeTokenFile(path, { ...file, tokens: file.tokens.map((t) => (t.id === id ? revoked : t)) });
  return revoked;
}

/** The grants of a file's live tokens, with the digests to compare bearer tokens against. */
export function grantsOf(file: TokenFile, defaults: { rate: number; burst: number }): Array<{ digest: Buffer; grant: Grant }> {
  return file.tokens
    .filter((t) => t.revoked_at === null)
    .map((t) => ({
      digest: Buffer.from(t.hash.slice("sha256:".length), "hex"),
      grant: {
        id: t.id,
        permissions: new Set(t.scopes),
        projects: t.projects[0] === ALL_PROJECTS ? ALL_PROJECTS : new Set(t.projects),
        ...(t.rate !== undefined || t.burst !== undefined ? { limit: { rate: t.rate ?? defaults.rate, burst: t.burst ?? defaults.burst } } : {}),
      },
    }));
}
