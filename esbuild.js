// Bundles the CLI (and later the extension and webview). Native and large runtime packages stay
// external: they ship in node_modules because their .node binaries cannot be bundled.
const esbuild = require("esbuild");

const external = ["@lancedb/lancedb", "apache-arrow", "@huggingface/transformers", "onnxruntime-node", "sharp"];

async function main() {
  await esbuild.build({
    entryPoints: { cli: "src/cli/main.ts" },
    outdir: "dist",
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    sourcemap: true,
    external,
    logLevel: "warning",
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
