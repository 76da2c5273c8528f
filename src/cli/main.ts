import { HindsightError } from "../core/errors.js";
import { benchCommand } from "./commands/benchCommand.js";
import { benchTeamCommand } from "./commands/benchTeamCommand.js";
import { editCommand, showCommand } from "./commands/detailCommands.js";
import { evalCommand } from "./commands/evalCommand.js";
import { exportCommand, importCommand } from "./commands/exportCommand.js";
import { mcpCommand } from "./commands/mcpCommand.js";
import { ownerCommand } from "./commands/ownerCommand.js";
import { forgetCommand, ingestCommand, listCommand, recallCommand, rememberCommand } from "./commands/memoryCommands.js";
import { reembedCommand } from "./commands/reembedCommand.js";
import { reviewCommand, summarizeCommand } from "./commands/reviewCommands.js";
import { serveCommand } from "./commands/serveCommand.js";
import { tokenCommand } from "./commands/tokenCommand.js";

const USAGE = `hindsight — memory for coding agents

  hindsight mcp [--scope S] [--data DIR] [--no-daemon]
                                                  (MCP server on stdio: JSON-RPC on stdout, logs on stderr; a client of
                                                   the store's owner, which it starts when nobody owns the store)
  hindsight serve [--host 127.0.0.1] [--port 8765] [--data DIR] [--token T] [--rate N] [--burst N] [--allowed-host H:P ...] [--idle-exit SECONDS]
                  [--store lancedb|qdrant] [--qdrant-url URL] [--qdrant-prefix P] [--tokens FILE] [--redis-url redis://…]
                                                  (REST /api/v1, MCP /mcp, /healthz, /metrics over HTTP; bearer token,
                                                   or the scoped tokens of a tokens file for a team; with --redis-url the
                                                   replicas of a team server share their rate limits in Redis)
  hindsight owner                                 (the VS Code extension's store owner, started as its child: JSON lines on
                                                   stdin and stdout, exits when stdin closes; not for use by hand)
  hindsight token create --id ID [--scopes read,write,admin] --projects project:a,team:b|* [--rate N] [--burst N] [--note T] [--tokens FILE] [--json]
  hindsight token list [--tokens FILE] [--json]  |  hindsight token revoke ID [--tokens FILE] [--json]
  hindsight export [--scope S] [--out FILE] [--json]
                                                  (JSONL: memories and L0 turns, no vectors)
  hindsight import FILE [--scope S] [--json]      (ids kept, existing ids skipped; into another scope than the file's:
                                                   a copy with new ids, links between the records kept)
  hindsight ingest TEXT [--assistant REPLY] [--session ID] [--scope S] [--json]
                                                  (judged: what was said in a conversation; extraction decides what,
                                                   if anything, is kept and what it replaces, as MCP memory_ingest)
  hindsight remember TEXT [--type T] [--subject S] [--confidence C] [--valid-until ISO] [--replaces ID ...] [--scope S] [--json]
                                                  (stored exactly as given, still guarded and reconciled with what is
                                                   known; for conversation text use ingest)
  hindsight recall QUERY [-k N] [--type T] [--scope S] [--json]
  hindsight forget [QUERY] [--id ID ...] [--match WORD ...] [--yes] [--scope S] [--json]
                                                  (lists what it would forget and asks; --yes for scripts)
  hindsight show ID [--scope S] [--json]         (a memory: status and why, what it replaced or was replaced by, its turns)
  hindsight edit ID [--content T] [--type T] [--confidence C] [--valid-until ISO|none] [--pin|--unpin] [--scope S] [--json]
  hindsight list [--type T] [--status active|superseded|quarantined|archived|all] [--all] [--scope S] [--json]
  hindsight summarize [TOPIC] [--subject S] [--type T] [--since ISO] [--until ISO] [--propose] [--json]
  hindsight review [list|propose|approve ID|reject ID|rollback ID] [--status S] [--json]
  hindsight reembed [--data DIR] [--json]
  hindsight eval FILE|DIR [--json] [--store lancedb|memory] [--gate BASELINE.json] [--case ID]... [--trace] [--config JSON]
  hindsight bench locomo FILE [--k 5,10] [--conversations N] [--json] [--profile] [--config JSON] [--cv] [--stores DIR]
  hindsight bench perf [--n 1000,10000,100000] [--json]
  hindsight bench serve [--n 10000] [--json]
  hindsight bench team [--clients 4] [--seconds 120] [--store lancedb|qdrant] [--qdrant-url URL] [--redis-url URL]
                       [--replicas 1,2,3] [--questions N] [--json]
  hindsight bench compare --locomo FILE --cases FILE [--cases FILE] [--systems hindsight,cosine,bm25,server-memory,server-memory-keywords]
                          [--workloads locomo,regression,latency] [--n 1000,10000] [--n-hindsight 100000] [--report DIR] [--json] [--from results.json]

Environment: HINDSIGHT_HOME (data folder), HINDSIGHT_MODEL_DIR (local models),
HINDSIGHT_MODEL (embedding model id), HINDSIGHT_ALLOW_DOWNLOAD=1 (fetch models from the hub),
HINDSIGHT_TOKEN (serve's bearer token; default: generated once into the data folder),
HINDSIGHT_TOKENS (the tokens file of serve and token; default: tokens.json in the data folder for token),
HINDSIGHT_STORE, HINDSIGHT_QDRANT_URL, QDRANT_API_KEY, HINDSIGHT_SCOPE, HINDSIGHT_HOST, HINDSIGHT_PORT (serve, for containers).
HINDSIGHT_IDLE_EXIT (seconds an owner started by a client stays up without requests; default 600).
Ids are shown by their first 8 characters; every ID argument takes any unique prefix of 4 or more.
Scope defaults to the current git repository (project:<remote>) or folder. The memory commands (ingest, remember,
recall, forget, show, edit, list, summarize, review, export, import) and mcp reach the store through its owner
process; --no-daemon opens the store in the command itself (refused while another process owns it).`;

/** The usage lines of one command (its --help). */
function usageOf(name: string): string {
  const lines = USAGE.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!line.includes(`hindsight ${name}`)) continue;
    out.push(line.trim());
    // Continuation lines are indented past the command column.
    while (i + 1 < lines.length && /^\s{10,}\S/.test(lines[i + 1] as string) && !/^\s*hindsight /.test(lines[i + 1] as string)) out.push(`    ${(lines[++i] as string).trim()}`);
  }
  return out.join("\n");
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  mcp: mcpCommand,
  remember: rememberCommand,
  ingest: ingestCommand,
  show: showCommand,
  edit: editCommand,
  recall: recallCommand,
  forget: forgetCommand,
  list: listCommand,
  reembed: reembedCommand,
  summarize: summarizeCommand,
  review: reviewCommand,
  eval: evalCommand,
  // `bench team` needs the server and the tokens file, so its glue lives beside the serve command.
  bench: (argv) => (argv[0] === "team" ? benchTeamCommand(argv.slice(1)) : benchCommand(argv)),
  serve: serveCommand,
  owner: () => ownerCommand(),
  token: tokenCommand,
  export: exportCommand,
  import: importCommand,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`hindsight: unknown command "${name}"\n\n${USAGE}\n`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    process.stdout.write(`${usageOf(name)}\n`);
    return 0;
  }
  // Memories, tokens and exports are the user's alone: every file this command creates is 0600/0700.
  process.umask(0o077);
  return command(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (HindsightError.is(err)) process.stderr.write(`hindsight: ${err.code}: ${err.message}\n`);
    else process.stderr.write(`hindsight: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 2;
  },
);
