import { strict as assert } from "node:assert";
import { resolve } from "node:path";
import { ESLint } from "eslint";

const root = resolve(__dirname, "../../../..");

async function messages(code: string, filePath: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

const probe = (specifier: string): string => `import * as x from "${specifier}";\nexport const y = x;\n`;

describe("layer rules for src/mcp (eslint.config.mjs)", function () {
  this.timeout(60_000);

  for (const specifier of ["vscode", "node:http", "http", "../../stores/memory/memoryStore.js", "../../server/runtime.js", "../../extension/main.js", "../../cli/main.js"]) {
    it(`src/mcp refuses ${specifier}`, async () => {
      const found = await messages(probe(specifier), "src/mcp/tools/probe.ts");
      assert.ok(found.some((m) => /^(@typescript-eslint\/)?no-restricted-imports/.test(m)), JSON.stringify(found));
    });
  }

  it("src/mcp may use node:http types (the streamable-HTTP glue), not open a server", async () => {
    assert.deepEqual(await messages('import type { IncomingMessage } from "node:http";\nexport type R = IncomingMessage;\n', "src/mcp/probe.ts"), []);
    const found = await messages('import { createServer } from "node:http";\nexport const s = createServer;\n', "src/mcp/probe.ts");
    assert.ok(found.some((m) => m.includes("opens no servers")), JSON.stringify(found));
  });

  it("src/server and src/cli refuse the MCP SDK: it stays in src/mcp", async () => {
    for (const file of ["src/server/probe.ts", "src/cli/probe.ts"]) {
      const found = await messages(probe("@modelcontextprotocol/sdk/server/mcp.js"), file);
      assert.ok(found.some((m) => m.includes("Only src/mcp may import the MCP SDK")), `${file}: ${JSON.stringify(found)}`);
    }
  });

  it("src/mcp may import the MCP SDK (server paths included), zod and src/core", async () => {
    const code = [
      'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";',
      'import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";',
      'import { z } from "zod";',
      'import { MemoryEngine } from "../../core/engine.js";',
      'import { toolError } from "../errors.js";',
      "export const y = [McpServer, StdioServerTransport, z, MemoryEngine, toolError];",
      "",
    ].join("\n");
    assert.deepEqual(await messages(code, "src/mcp/tools/probe.ts"), []);
  });

  it("core, stores and models still refuse the MCP SDK", async () => {
    for (const file of ["src/core/probe.ts", "src/stores/probe.ts", "src/models/probe.ts"]) {
      const found = await messages(probe("@modelcontextprotocol/sdk/server/mcp.js"), file);
      assert.ok(found.some((m) => m.includes("MCP SDK")), `${file}: ${JSON.stringify(found)}`);
    }
  });
});
