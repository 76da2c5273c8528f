import { parseArgs } from "node:util";
import { bridgeStdio } from "../../mcp/bridge.js";
import { serveStdio } from "../../mcp/stdio.js";
import { ensureOwner } from "../../server/owner.js";
import { scopeForFolder } from "../../server/paths.js";
import { openLocalEngine } from "../../server/runtime.js";
import { SESSION_OPTIONS, idleExitSeconds, storeDir, type SessionFlags } from "./engineSession.js";

/**
 * Keeps stdout for the protocol: anything a library prints through console.log/info/debug goes to
 * stderr instead (the transport writes to process.stdout directly, not through the console).
 */
function reserveStdout(): void {
  const toStderr = (...args: unknown[]): void => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/**
 * `hindsight mcp`: MCP on stdio for an agent, until the client closes stdin or a signal arrives. As
 * a client of the store's owner (the extension, a `serve`, or a daemon started here when nobody owns
 * the store), so every agent, the CLI and the editor share one engine and see each other's writes;
 * with --no-daemon this process owns the store itself (and nobody else can open it meanwhile).
 */
export async function mcpCommand(argv: string[]): Promise<number> {
  reserveStdout();
  const { values } = parseArgs({ args: argv, options: SESSION_OPTIONS });
  const scope = values.scope ?? scopeForFolder(process.cwd());
  if (values["no-daemon"]) return serveOwnStore(scope, values);
  const dir = storeDir(values);
  const session = await bridgeStdio({
    scope,
    connect: () => ensureOwner(dir, { cli: process.argv[1] as string, idleExitS: idleExitSeconds() }),
    log: (message) => values.verbose && process.stderr.write(`[hindsight] ${message}\n`),
  });
  process.stderr.write(`[hindsight] MCP on stdio (scope ${scope}), served by the owner of ${dir}\n`);
  return untilClosed(session);
}

async function serveOwnStore(scope: string, values: SessionFlags): Promise<number> {
  const local = await openLocalEngine({ scope, dataDir: storeDir(values), verbose: values.verbose ?? false, role: "mcp" });
  try {
    const session = await serveStdio(local.engine, { scopeForRoot: scopeForFolder });
    process.stderr.write(`[hindsight] MCP server on stdio (scope ${scope}; this process owns the store)\n`);
    return await untilClosed(session);
  } finally {
    await local.close();
  }
}

async function untilClosed(session: { closed: Promise<void>; close(): Promise<void> }): Promise<number> {
  const stop = (): void => void session.close();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  try {
    await session.closed;
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    process.stdin.pause();
  }
  return 0;
}
