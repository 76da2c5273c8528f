import { strict as assert } from "node:assert";
import { lintProbe, lintTypedProbe } from "../helpers/lintProbe.js";

describe("layer rules (eslint.config.mjs)", function () {
  this.timeout(60_000);

  const banned: Array<[string, string]> = [
    ['import * as vscode from "vscode";\nexport const x = vscode;\n', "vscode"],
    ['import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nexport const x = McpServer;\n', "MCP SDK"],
    ['import { createServer } from "node:http";\nexport const x = createServer;\n', "network"],
    ['import { connect } from "node:net";\nexport const x = connect;\n', "network"],
    ['import { LanceStore } from "../stores/lancedb/lanceStore.js";\nexport const x = LanceStore;\n', "depend on"],
    ["export const now = (): number => Date.now();\n", "wall clock"],
  ];
  for (const [code, expected] of banned) {
    it(`src/core refuses: ${code.split("\n")[0]}`, async () => {
      const messages = await lintProbe(code, "src/core/probe.ts");
      assert.ok(messages.some((m) => m.includes(expected)), `expected a "${expected}" violation, got ${JSON.stringify(messages)}`);
    });
  }

  it("src/stores may not import vscode or the MCP SDK", async () => {
    const messages = await lintProbe('import * as vscode from "vscode";\nexport const x = vscode;\n', "src/stores/probe.ts");
    assert.ok(messages.some((m) => m.startsWith("no-restricted-imports")), JSON.stringify(messages));
  });

  it("src/, test/ and webview-ui/ refuse an unawaited promise and a promise where a void callback is expected (type-aware)", async () => {
    const code = "export const later = async (): Promise<void> => {};\nlater();\nexport const each = [1].forEach(async () => {\n  await later();\n});\n";
    for (const file of ["src/core/errors.ts", "test/helpers/records.ts", "webview-ui/src/format.ts"]) {
      const messages = await lintTypedProbe(code, file);
      assert.ok(messages.some((m) => m.startsWith("@typescript-eslint/no-floating-promises")), `${file}: ${JSON.stringify(messages)}`);
      assert.ok(messages.some((m) => m.startsWith("@typescript-eslint/no-misused-promises")), `${file}: ${JSON.stringify(messages)}`);
    }
  });

  it("src/core may import zod and its own modules", async () => {
    const messages = await lintProbe('import { z } from "zod";\nimport { cosine } from "./text/vector.js";\nexport const x = [z, cosine];\n', "src/core/probe.ts");
    assert.deepEqual(messages, []);
  });
});
