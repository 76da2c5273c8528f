import { parseArgs } from "node:util";
import { serveStdio } from "../../mcp/stdio.js";
import { scopeForFolder } from "../../server/paths.js";
import { openLocalEngine } from "../../server/runtime.js";

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

/** `hindsight mcp`: the embedded engine as an MCP server on stdio, until the client closes stdin or a signal arrives. */
export async function mcpCommand(argv: string[]): Promise<number> {
  reserveStdout();
  const { values } = parseArgs({ args: argv, options: { scope: { type: "string" }, data: { type: "string" }, verbose: { type: "boolean" } } });
  const scope = values.scope ?? scopeForFolder(process.cwd());
  const { engine } = await openLocalEngine({ scope, ...(values.data ? { dataDir: values.data } : {}), verbose: values.verbose ?? false });
  try {
    const session = await serveStdio(engine);
    const stop = (): void => void session.close();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    process.stderr.write(`[hindsight] MCP server on stdio (scope ${scope})\n`);
    try {
      await session.closed;
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  } finally {
    await engine.close();
    process.stdin.pause();
  }
  return 0;
}
