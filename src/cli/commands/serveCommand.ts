import { join } from "node:path";
import { parseArgs } from "node:util";
import { HindsightError } from "../../core/errors.js";
import { defaultHome, scopeForFolder } from "../../server/paths.js";
import { stderrLogger, openLocalEngine } from "../../server/runtime.js";
import { DEFAULT_BURST, DEFAULT_HOST, DEFAULT_PORT, DEFAULT_RATE, serveUntilSignal, startServer } from "../../server/serve.js";
import { resolveServerToken } from "../../server/token.js";

function number(value: string | undefined, flag: string, fallback: number, check: (n: number) => boolean, rule: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || !check(n)) throw new HindsightError("INVALID_INPUT", `${flag}: must be ${rule}`, { field: flag });
  return n;
}

/**
 * `hindsight serve`: REST (/api/v1), MCP over streamable HTTP (/mcp), /healthz and /metrics on the
 * embedded default store, behind a bearer token. Logs and the bound URL go to stderr.
 */
export async function serveCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      data: { type: "string" },
      scope: { type: "string" },
      token: { type: "string" },
      rate: { type: "string" },
      burst: { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      verbose: { type: "boolean" },
    },
  });
  const port = number(values.port, "--port", DEFAULT_PORT, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, "an integer from 0 to 65535");
  const rate = number(values.rate, "--rate", DEFAULT_RATE, (n) => n >= 0, "a number of requests per second (0: no limit)");
  const burst = number(values.burst, "--burst", DEFAULT_BURST, (n) => Number.isInteger(n) && n >= 1, "an integer of at least 1");
  const dataDir = values.data ?? join(defaultHome(), "store");
  const logger = stderrLogger(values.verbose ?? false);

  const token = await resolveServerToken({ flag: values.token, env: process.env.HINDSIGHT_TOKEN, dataDir });
  const { engine } = await openLocalEngine({ scope: values.scope ?? scopeForFolder(process.cwd()), dataDir, verbose: values.verbose ?? false });
  let running;
  try {
    running = await startServer({
      engine,
      tokens: [token.token],
      host: values.host ?? DEFAULT_HOST,
      port,
      rate,
      burst,
      ...(values["allowed-host"] ? { allowedHosts: values["allowed-host"] } : {}),
      logger,
    });
  } catch (err) {
    await engine.close();
    throw err;
  }
  if (token.source === "generated") {
    process.stderr.write(`hindsight: generated a bearer token, saved to ${token.path} (mode 0600); it is shown only this once:\n${token.token}\n`);
  } else if (token.source === "file") {
    process.stderr.write(`hindsight: using the bearer token in ${token.path}\n`);
  }
  process.stderr.write(`hindsight: serving ${running.url} (REST ${running.url}/api/v1, MCP ${running.url}/mcp, ${running.url}/healthz, ${running.url}/metrics); scope ${engine.config.defaultScope}\n`);
  return serveUntilSignal(running, engine, logger);
}
