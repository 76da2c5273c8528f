// The sidebar webview's entry (bundled by esbuild.js to dist/webview/main.js and main.css).
import "./styles.css";
import "@vscode-elements/elements/dist/vscode-badge/index.js";
import "@vscode-elements/elements/dist/vscode-button/index.js";
import "@vscode-elements/elements/dist/vscode-checkbox/index.js";
import "@vscode-elements/elements/dist/vscode-icon/index.js";
import "@vscode-elements/elements/dist/vscode-label/index.js";
import "@vscode-elements/elements/dist/vscode-option/index.js";
import "@vscode-elements/elements/dist/vscode-progress-ring/index.js";
import "@vscode-elements/elements/dist/vscode-single-select/index.js";
import "@vscode-elements/elements/dist/vscode-textarea/index.js";
import "@vscode-elements/elements/dist/vscode-textfield/index.js";
import "./app.js";

performance.mark("hindsight:script-start");
const root = document.getElementById("root");
if (root) {
  root.append(document.createElement("hs-app"));
  root.removeAttribute("aria-busy");
}
