// Copies the codicon font and stylesheet next to the webview bundle (dist/webview/codicons/): the
// page links it with id "vscode-codicon-stylesheet", which @vscode-elements' icons look for.
// Called from esbuild.js (require("./webview-ui/build-assets.js").copyWebviewAssets()) or run directly.
const { copyFileSync, mkdirSync } = require("node:fs");
const { join, resolve } = require("node:path");

const ROOT = resolve(__dirname, "..");

function copyWebviewAssets(outDir = join(ROOT, "dist", "webview")) {
  const from = join(ROOT, "node_modules", "@vscode", "codicons", "dist");
  const to = join(outDir, "codicons");
  mkdirSync(to, { recursive: true });
  for (const file of ["codicon.css", "codicon.ttf"]) copyFileSync(join(from, file), join(to, file));
  return to;
}

module.exports = { copyWebviewAssets };

if (require.main === module) copyWebviewAssets();
