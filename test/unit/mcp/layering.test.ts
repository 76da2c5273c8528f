import { strict as assert } from "node:assert";
import { lintProbe } from "../../helpers/lintProbe.js";

const probe = (specifier: string): string => `import * as x from "${specifier}";\nexport const y = x;\n`;

describe("layer rules for src/mcp (eslint.config.mjs)", function () {
  this.timeout(60_000);

  for (const specifier of ["vscode", "node:http", "http", "../../stores/memory/memoryStore.js", "../../server/runtime.js", "../../extension/main.js", "../../cli/main.js"]) {
    it(`src/mcp refuses ${specifier}`, async () => {
      const found = await lintProbe(probe(specifier), "src/mcp/tools/probe.ts");
      assert.ok(found.some((m) => /^(@typescript-eslint\/)?no-restricted-imports/.test(m)), JSON.stringify(found));
    });
  }

  it("src/mcp may use node:http types (the streamable-HTTP glue), not open a server", async () => {
    assert.deepEqual(await lintProbe('import type { IncomingMessage } from "node:http";\nexport type R = IncomingMessage;\n', "src/mcp/probe.ts"), []);
    const found = await lintProbe('import { createServer } from "node:http";\nexport const s = createServer;\n', "src/mcp/probe.ts");
    assert.ok(found.some((m) => m.includes("opens no servers")), JSON.stringify(found));
  });

  it("src/server and src/cli refuse the MCP SDK: it stays in src/mcp", async () => {
    for (const file of ["src/server/probe.ts", "src/cli/probe.ts"]) {
      const found = await lintProbe(probe("@modelcontextprotocol/sdk/server/mcp.js"), file);
      assert.ok(found.some((m) => m.includes("The MCP SDK is imported only in src/mcp")), `${file}: ${JSON.stringify(found)}`);
    }
  });

  it("the MCP SDK is allowed only where the allow-list says: src/mcp, the bench anchors, tests that drive MCP servers", async () => {
    const client = probe("@modelcontextprotocol/sdk/client/index.js");
    for (const file of ["src/bench/anchors/probe.ts", "src/mcp/probe.ts", "test/integration/probe.test.ts", "test/unit/mcp/probe.test.ts"]) {
      assert.deepEqual(await lintProbe(client, file), [], file);
    }
    for (const file of ["src/bench/compare/probe.ts", "src/eval/probe.ts", "src/extension/probe.ts", "src/http/probe.ts", "src/llm/probe.ts", "webview-ui/src/probe.ts", "test/unit/core/probe.test.ts"]) {
      const found = await lintProbe(client, file);
      assert.ok(found.some((m) => m.includes("MCP SDK")), `${file}: ${JSON.stringify(found)}`);
    }
  });

  it("a layer's own import rules do not lift the SDK ban (the ban is a rule of its own)", async () => {
    const code = 'import * as vscode from "vscode";\nimport { Client } from "@modelcontextprotocol/sdk/client/index.js";\nexport const y = [vscode, Client];\n';
    const found = await lintProbe(code, "src/stores/probe.ts");
    assert.ok(found.some((m) => m.includes("Only src/extension may import vscode")), JSON.stringify(found));
    assert.ok(found.some((m) => m.includes("MCP SDK")), JSON.stringify(found));
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
    assert.deepEqual(await lintProbe(code, "src/mcp/tools/probe.ts"), []);
  });

  it("core, stores and models still refuse the MCP SDK", async () => {
    for (const file of ["src/core/probe.ts", "src/stores/probe.ts", "src/models/probe.ts"]) {
      const found = await lintProbe(probe("@modelcontextprotocol/sdk/server/mcp.js"), file);
      assert.ok(found.some((m) => m.includes("MCP SDK")), `${file}: ${JSON.stringify(found)}`);
    }
  });
});
