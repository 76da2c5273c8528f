import { join } from "node:path";
import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { PERMISSIONS, type Permission } from "../../http/access/grant.js";
import { defaultHome } from "../../server/paths.js";
import { createToken, readTokenFile, revokeToken, type TokenEntry } from "../../server/tokenFile.js";
import { print, printJson } from "../output.js";

/** --tokens FILE, else HINDSIGHT_TOKENS, else tokens.json in the data folder. */
function tokensPath(flag: string | undefined): string {
  return flag ?? (process.env.HINDSIGHT_TOKENS || join(defaultHome(), "tokens.json"));
}

function list(value: string | undefined, field: string): string[] {
  const items = (value ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) throw new HindsightError("INVALID_INPUT", `${field}: required (comma-separated)`, { field });
  return items;
}

function optionalNumber(value: string | undefined, field: string, check: (n: number) => boolean, rule: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || !check(n)) throw new HindsightError("INVALID_INPUT", `${field}: must be ${rule}`, { field });
  return n;
}

function describe(t: TokenEntry): string {
  const limit = t.rate !== undefined || t.burst !== undefined ? `  rate ${t.rate ?? "default"}/s burst ${t.burst ?? "default"}` : "";
  const state = t.revoked_at ? `revoked ${t.revoked_at}` : `created ${t.created_at}`;
  return `${t.id.padEnd(20)} ${t.scopes.join(",").padEnd(16)} ${t.projects.join(",")}  (${state})${limit}${t.note ? `  ${t.note}` : ""}`;
}

/** `hindsight token create|list|revoke`: the team server's scoped tokens (only their hashes are stored). */
export async function tokenCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      tokens: { type: "string" },
      id: { type: "string" },
      scopes: { type: "string" },
      projects: { type: "string" },
      rate: { type: "string" },
      burst: { type: "string" },
      note: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const path = tokensPath(values.tokens);

  if (action === "create") {
    const id = values.id ?? positionals[0];
    if (!id) throw new HindsightError("INVALID_INPUT", "token create: --id is required (a name for the token, e.g. alice-laptop)", { field: "--id" });
    const scopes = list(values.scopes ?? "read,write", "--scopes");
    for (const s of scopes) {
      if (!(PERMISSIONS as readonly string[]).includes(s)) throw new HindsightError("INVALID_INPUT", `--scopes: "${s}" is not one of ${PERMISSIONS.join(", ")}`, { field: "--scopes" });
    }
    const rate = optionalNumber(values.rate, "--rate", (n) => n >= 0, "a number of requests per second (0: no limit)");
    const burst = optionalNumber(values.burst, "--burst", (n) => Number.isInteger(n) && n >= 1, "an integer of at least 1");
    const { token, entry } = await createToken(
      path,
      {
        id,
        scopes: scopes as Permission[],
        projects: list(values.projects, "--projects"),
        ...(rate !== undefined ? { rate } : {}),
        ...(burst !== undefined ? { burst } : {}),
        ...(values.note ? { note: values.note } : {}),
      },
      new Date(),
    );
    if (values.json) printJson({ id: entry.id, token, scopes: entry.scopes, projects: entry.projects, file: path });
    else {
      process.stderr.write(`hindsight: token ${entry.id} (${entry.scopes.join(", ")} on ${entry.projects.join(", ")}) added to ${path}; it is shown only this once:\n`);
      print(token);
    }
    return 0;
  }
  if (action === "list") {
    const file = await readTokenFile(path, { missingOk: true });
    if (values.json) printJson({ file: path, tokens: file.tokens.map(({ hash: _hash, ...t }) => t) });
    else if (file.tokens.length === 0) print(`no tokens in ${path}`);
    else for (const t of file.tokens) print(describe(t));
    return 0;
  }
  if (action === "revoke") {
    const id = values.id ?? positionals[0];
    if (!id) throw new HindsightError("INVALID_INPUT", "token revoke: give the token id", { field: "id" });
    const entry = await revokeToken(path, id, new Date());
    // The token file's own casing, as token list --json prints it.
    if (values.json) printJson({ id: entry.id, revoked_at: entry.revoked_at, file: path });
    else process.stderr.write(`hindsight: token ${entry.id} revoked (${entry.revoked_at}); a running server refuses it within a second\n`);
    return 0;
  }
  throw new HindsightError("INVALID_INPUT", `token: expected "create", "list" or "revoke", got "${action ?? ""}"`, { field: "token" });
}
