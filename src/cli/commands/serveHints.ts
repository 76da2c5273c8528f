/** Where a person who just ran `hindsight serve` (or `npm start`) goes next, printed once under "serving …". */
export interface ServeHintInput {
  url: string;
  scope: string;
  /** True when the scope came from the folder the server was started in (no --scope, no HINDSIGHT_SCOPE). */
  scopeFromFolder: boolean;
  folder: string;
  /** How to run the CLI from here: the launcher this process was started with. */
  cli: string;
  /** The file holding the plain bearer token, when there is one (a token given by flag or env has none). */
  tokenFile: string | null;
  /** A tokens file (team mode) instead of one plain token. */
  teamTokens: boolean;
}

/** The scoped package published for use outside this checkout (the binary is still `hindsight`). */
export const PUBLISHED_PACKAGE = "@judged-memory/hindsight";

function shellQuote(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function serveHints(i: ServeHintInput): string {
  const mcp = `${i.url}/mcp`;
  const bearer = i.tokenFile ? `$(cat ${shellQuote(i.tokenFile)})` : i.teamTokens ? "<a token from the tokens file>" : "<the token you gave with --token or HINDSIGHT_TOKEN>";
  const scopeLine = i.scopeFromFolder
    ? `scope    ${i.scope}: the folder this server started in (${i.folder}; its git remote, else its name). Agents that name no scope use their workspace folder's scope, or this one when they report no folder.`
    : `scope    ${i.scope} (from --scope / HINDSIGHT_SCOPE). Agents that name no scope use their workspace folder's scope, or this one when they report no folder.`;
  return [
    "",
    "next steps",
    `  ${scopeLine}`,
    "           Another project: restart with --scope project:NAME, or pass `scope` per request (MCP tools, REST, --scope on the CLI).",
    `  try      ${i.cli} remember "We deploy from the release branch."`,
    `           ${i.cli} recall "How do we deploy?"`,
    `           (anywhere else: npx -y ${PUBLISHED_PACKAGE} <command>; the CLI opens this store through this server while it runs)`,
    `  Claude   claude mcp add --transport http hindsight ${mcp} --header "Authorization: Bearer ${bearer}"`,
    `  Cursor   .cursor/mcp.json: { "mcpServers": { "hindsight": { "url": "${mcp}", "headers": { "Authorization": "Bearer ${i.tokenFile ? `<contents of ${i.tokenFile}>` : "<token>"}" } } } }`,
    "  VS Code  install the extension (npm run package, then Extensions: Install from VSIX… with dist-vsix/*.vsix); its Memory view in the",
    "           activity bar shows, edits and tests these memories, and Copilot agent mode gets the tools without any config.",
    "  stop     Ctrl+C",
    "",
  ].join("\n");
}
