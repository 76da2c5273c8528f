import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Readable, Writable } from "node:stream";

/** A minimal MCP client over streamable HTTP for tools that drive a hindsight server (benchmarks). */
export interface McpToolClient {
  /** Calls a tool; a tool error becomes a thrown Error with the tool's text. */
  call(name: string, args: Record<string, unknown>): Promise<void>;
  /** Calls a tool and returns its structured result; a tool error becomes a thrown Error with the tool's text. */
  callStructured(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

function toolText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? "").join(" ");
}

export async function connectMcpHttp(serverUrl: string, token: string, clientName = "hindsight-client"): Promise<McpToolClient> {
  return toolClient(new StreamableHTTPClientTransport(new URL("/mcp", serverUrl), { requestInit: { headers: { authorization: `Bearer ${token}` } } }), clientName);
}

/** A client speaking newline-delimited JSON-RPC over two streams: what an agent does with `hindsight mcp`'s stdio. */
export async function connectMcpStreams(fromServer: Readable, toServer: Writable, clientName = "hindsight-client"): Promise<McpToolClient> {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    start: async () => {
      fromServer.on("data", (chunk: Buffer) => {
        buffer.append(chunk);
        for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) transport.onmessage?.(m);
      });
    },
    send: async (message: JSONRPCMessage) => {
      toServer.write(serializeMessage(message));
    },
    close: async () => {
      toServer.end();
      transport.onclose?.();
    },
  };
  return toolClient(transport, clientName);
}

async function toolClient(transport: Transport, clientName: string): Promise<McpToolClient> {
  const client = new Client({ name: clientName, version: "0.1.0" });
  await client.connect(transport);
  const callStructured = async (name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name} failed: ${toolText(r)}`);
    return (r.structuredContent ?? {}) as Record<string, unknown>;
  };
  return {
    call: async (name, args) => {
      await callStructured(name, args);
    },
    callStructured,
    close: () => client.close(),
  };
}
