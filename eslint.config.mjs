// Layer rules live here, not in reviewers' heads: each folder lists what it may never import.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const editor = { name: "vscode", message: "Only src/extension may import vscode." };
/**
 * The only files that may import the MCP SDK: hindsight's MCP server and clients (src/mcp), the
 * benchmark's stdio clients of other MCP servers (src/bench/anchors), and the tests that drive a
 * server as an MCP host does. Everything else reaches MCP through src/mcp, so a second MCP glue
 * layer cannot grow unnoticed; a new user of the SDK is added here, on purpose.
 */
const mcpSdkAllowedIn = [
  "src/mcp/**/*.ts",
  "src/bench/anchors/**/*.ts",
  "test/unit/mcp/**/*.ts",
  "test/integration/**/*.ts",
  "test/host/**/*.ts",
  "test/helpers/serveProcess.ts",
];
const mcpSdk = {
  group: ["@modelcontextprotocol/*"],
  message: "The MCP SDK is imported only in src/mcp, src/bench/anchors and the tests that drive MCP servers (mcpSdkAllowedIn): reach MCP through src/mcp.",
};
const network = ["http", "https", "net", "node:http", "node:https", "node:net"].map((name) => ({
  name,
  message: "src/core stays free of the network: add a port in src/core/ports.ts instead.",
}));
const sideEffects = ["fs", "node:fs", "fs/promises", "node:fs/promises", "child_process", "node:child_process"].map((name) => ({
  name,
  message: "src/core is pure: files and processes belong to stores or the composition roots.",
}));
const upward = (folders, from) => ({
  group: folders.flatMap((f) => [`**/${f}/*`, `**/${f}`]),
  message: `${from} must not depend on ${folders.join(", ")}: dependencies point down to src/core.`,
});

export default tseslint.config(
  { ignores: ["node_modules/**", "out/**", "dist/**", "media/**", "**/*.js", "**/*.mjs"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.ts"],
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      eqeqeq: ["error", "always"],
    },
  },
  {
    // A promise nobody awaits loses its error (an unhandled rejection ends the server process), and a
    // promise where a callback's void is expected runs unordered: both need the types to be seen.
    files: ["src/**/*.ts", "test/**/*.ts", "webview-ui/**/*.ts"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
  {
    // Kept in its own rule (the layers below use no-restricted-imports) so no layer's list can override the allow-list.
    files: ["**/*.ts"],
    ignores: mcpSdkAllowedIn,
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [mcpSdk] }] },
  },
  {
    files: ["src/core/**/*.ts"],
    rules: {
      "no-console": "error",
      "no-restricted-imports": [
        "error",
        { paths: [editor, ...network, ...sideEffects], patterns: [upward(["stores", "mcp", "extension", "server", "cli", "models", "eval", "bench", "protocol"], "src/core")] },
      ],
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: "The engine reads time from the injected Clock, never the wall clock." },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "The engine reads time from the injected Clock, never the wall clock." },
        { selector: "CallExpression[callee.object.name='performance'][callee.property.name='now']", message: "The engine reads time from the injected Clock." },
      ],
    },
  },
  {
    files: ["src/stores/**/*.ts", "src/models/**/*.ts", "src/llm/**/*.ts"],
    rules: {
      "no-console": "error",
      "no-restricted-imports": ["error", { paths: [editor], patterns: [upward(["mcp", "extension", "server", "cli", "eval", "bench"], "stores and models")] }],
    },
  },
  {
    files: ["src/eval/**/*.ts", "src/bench/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [editor], patterns: [upward(["extension", "cli", "server"], "eval and bench")] }],
    },
  },
  {
    files: ["src/http/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [editor],
          patterns: [upward(["stores", "mcp", "extension", "server", "cli", "models", "llm", "eval", "bench"], "src/http")],
        },
      ],
    },
  },
  {
    files: ["src/server/**/*.ts", "src/cli/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [editor], patterns: [upward(["extension"], "server and cli")] }],
    },
  },
  {
    files: ["src/mcp/**/*.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          // Types of node:http are allowed (the streamable-HTTP glue in src/mcp/http.ts); opening servers is not.
          paths: [editor, ...["http", "node:http"].map((name) => ({ name, allowTypeImports: true, message: "src/mcp opens no servers: HTTP belongs to src/http or src/server." }))],
          // Relative specifiers only: the SDK's own "@modelcontextprotocol/sdk/server/..." paths are allowed here.
          patterns: [
            {
              regex: "^(\\.\\.?/)+(stores|extension|server|cli|http|models|llm)(/|$)",
              message: "src/mcp must not depend on stores, extension, server, cli, http, models or llm: it gets a MemoryEngine from src/core.",
            },
          ],
        },
      ],
    },
  },
  {
    // The typed message protocol is shared by the extension and the webview: data shapes only.
    files: ["src/protocol/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [editor, ...network, ...sideEffects],
          patterns: [upward(["core", "stores", "mcp", "extension", "server", "cli", "models", "llm", "eval", "bench", "http"], "src/protocol")],
        },
      ],
    },
  },
  {
    // The webview runs in a browser sandbox and talks to the extension only through src/protocol messages.
    files: ["webview-ui/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [editor, ...network, ...sideEffects],
          patterns: [upward(["core", "stores", "mcp", "extension", "server", "cli", "models", "llm", "eval", "bench", "http"], "webview-ui")],
        },
      ],
    },
  },
  {
    files: ["test/**/*.ts"],
    rules: { "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
