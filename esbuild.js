// Bundles the CLI, the VS Code extension and the sidebar webview. Native and large runtime packages
// stay external: they ship in node_modules because their .node binaries cannot be bundled.
const { existsSync } = require("node:fs");
const esbuild = require("esbuild");

const external = ["@lancedb/lancedb", "apache-arrow", "@huggingface/transformers", "onnxruntime-node", "sharp"];
const production = process.argv.includes("--production");

async function main() {
  const node = {
    outdir: "dist",
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    sourcemap: !production,
    minify: production,
    logLevel: "warning",
  };
  const builds = [
    esbuild.build({ ...node, entryPoints: { cli: "src/cli/main.ts" }, external }),
    // The extension bundle stays light: the engine runs in the owner process, started from the CLI bundle.
    // Its first line notes the time, so activation is reported with the bundle's own loading (extension.ts).
    esbuild.build({ ...node, entryPoints: { extension: "src/extension/extension.ts" }, external: [...external, "vscode"], banner: { js: '"use strict";\nvar __hindsightBundleStart = performance.now();' } }),
  ];
  if (existsSync("webview-ui/src/main.ts")) {
    // Codicons' CSS and font go beside the webview bundle (the webview may load only from dist and media).
    require("./webview-ui/build-assets.js").copyWebviewAssets();
    builds.push(
      esbuild.build({
        entryPoints: { main: "webview-ui/src/main.ts" },
        outdir: "dist/webview",
        bundle: true,
        platform: "browser",
        format: "esm",
        target: "es2022",
        sourcemap: !production,
        minify: production,
        loader: { ".css": "css", ".ttf": "file" },
        logLevel: "warning",
      }),
    );
  }
  await Promise.all(builds);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
