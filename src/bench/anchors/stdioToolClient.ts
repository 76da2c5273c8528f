import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Stream } from "node:stream";

/** A spawned MCP server and an SDK client on its stdio: tools are called as any MCP host calls them. */
export interface StdioToolClient {
  /** Calls a tool and returns its structured content; a tool error becomes a thrown Error with the tool's text. */
  call(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The server's stderr so far (the tail), for error messages. */
  stderr(): string;
  close(): Promise<void>;
}

export interface StdioServerSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  clientName: string;
}

const STDERR_KEEP = 4000;

function toolText(result: Record<string, unknown>): string {
  const content = (result.content ?? []) as Array<{ type: string; text?: string }>;
  return content.map((c) => c.text ?? "").join(" ");
}

/** The parent's environment (the SDK's default keeps only a few variables) plus the server's own settings. */
export function inheritedEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, ...extra };
}

export async function connectStdio(spec: StdioServerSpec): Promise<StdioToolClient> {
  const transport = new StdioClientTransport({
    command: spec.command,
    args: spec.args,
    env: spec.env,
    ...(spec.cwd ? { cwd: spec.cwd } : {}),
    stderr: "pipe",
    // A keyword search of the official server can answer with most of a 10k-entity graph, twice (text and structured).
    maxBufferSize: 256 * 1024 * 1024,
  });
  let stderr = "";
  (transport.stderr as Stream | null)?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString("utf8")).slice(-STDERR_KEEP);
  });
  const client = new Client({ name: spec.clientName, version: "0.1.0" });
  try {
    await client.connect(transport);
  } catch (err) {
    await transport.close().catch(() => undefined);
    throw new Error(`could not start the MCP server ${spec.command} ${spec.args.join(" ")}: ${(err as Error).message}\n${stderr}`);
  }
  return {
    call: async (name, args) => {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 600_000 });
      if (r.isError) throw new Error(`${name} failed: ${toolText(r)}`);
      return (r.structuredContent ?? {}) as Record<string, unknown>;
    },
    stderr: () => stderr,
    close: () => client.close(),
  };
}
