#!/usr/bin/env node
// The first step of `npm test`: make this machine able to run every test, or say in the first
// seconds exactly which command would. Checks that need a person (a missing model folder, no rights
// to install Debian packages) run before anything slow; what can be installed is installed: Debian
// packages (when root or passwordless sudo), node_modules (`npm ci`), the pinned VS Code host.
// Plain Node with no dependencies: it must run before `npm ci` ever has.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { accessSync, constants, existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const say = (line) => process.stderr.write(`preflight: ${line}\n`);
const fail = (what, command) => {
  say(`${what}\n  run: ${command}\nthen run npm test again.`);
  process.exit(1);
};

// 1. Node: the engine and the tests need Node 20 or newer (the VS Code host brings its own Node 24).
const major = Number(process.versions.node.split(".")[0]);
if (major < 20) fail(`Node ${process.versions.node} is too old; the tests need Node 20 or newer.`, "nvm install 20 (or your platform's Node 20 package)");

// 2. The local models: tests never download, so the folder must be here (README, *Models*).
const modelDir = process.env.HINDSIGHT_MODEL_DIR ? resolve(process.env.HINDSIGHT_MODEL_DIR) : resolve(root, "..", "shared", "models");
for (const model of ["Xenova/multilingual-e5-small", "Xenova/all-MiniLM-L6-v2"]) {
  if (!existsSync(join(modelDir, model, "config.json"))) {
    fail(`the model ${model} is not in ${modelDir} (tests read models only from disk).`, `export HINDSIGHT_MODEL_DIR=/path/to/models   # a folder holding ${model}/config.json, tokenizer.json, onnx/model_quantized.onnx`);
  }
}

// 3. Debian packages: a browser for the webview and extension-host tests, the GSSAPI headers the
// VS Code host's kerberos module compiles against, docker-compose to validate the compose file,
// caddy to run the replicas profile's reverse proxy (docker/Caddyfile) in front of real replicas.
const browser = process.env.HINDSIGHT_CHROMIUM;
if (browser !== undefined && !executable(browser)) fail(`HINDSIGHT_CHROMIUM=${browser} is not an executable file.`, "unset HINDSIGHT_CHROMIUM   # or point it at a Chromium or Chrome binary");
const missing = [];
if (browser === undefined && !executable("/usr/bin/chromium")) missing.push("chromium");
if (!debianPackage("libkrb5-dev")) missing.push("libkrb5-dev");
if (!onPath("docker-compose")) missing.push("docker-compose");
if (!onPath("caddy")) missing.push("caddy");
if (missing.length > 0) {
  const asRoot = process.getuid?.() === 0;
  const sudo = asRoot ? [] : spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0 ? ["sudo"] : null;
  const command = `${asRoot ? "" : "sudo "}apt-get install -y ${missing.join(" ")}`;
  if (sudo === null || !onPath("apt-get")) fail(`missing ${missing.join(", ")}, and this user cannot install Debian packages.`, command);
  say(`installing ${missing.join(", ")}`);
  const apt = (args) => run(sudo[0] ?? "apt-get", sudo.length > 0 ? ["apt-get", ...args] : args, { DEBIAN_FRONTEND: "noninteractive" });
  if (!apt(["update", "-q"]) || !apt(["install", "-y", "-q", ...missing])) fail(`could not install ${missing.join(", ")}.`, command);
}

// 4. node_modules, from the lock file: again whenever the lock file changed since the last install.
const lock = createHash("sha256").update(readFileSync(join(root, "package-lock.json"))).digest("hex");
const stamp = join(root, "node_modules", ".hindsight-lock");
const installed = existsSync(stamp) ? readFileSync(stamp, "utf8").trim() : existsSync(join(root, "node_modules", ".package-lock.json")) ? "unknown" : null;
if (installed !== lock && installed !== "unknown") {
  say(installed === null ? "installing node_modules (npm ci)" : "package-lock.json changed: reinstalling node_modules (npm ci)");
  // onnxruntime-node's install script would fetch CUDA libraries; its CPU binary ships in the tarball.
  if (!run("npm", ["ci", "--no-audit", "--no-fund"], { ONNXRUNTIME_NODE_INSTALL: "skip" })) fail("npm ci failed (output above).", "ONNXRUNTIME_NODE_INSTALL=skip npm ci");
}
writeFileSync(stamp, `${lock}\n`);

// 5. The pinned VS Code host (Node 24 + code-server's VS Code server), idempotent.
if (!run("bash", [join(root, "tools", "vscode-host", "setup.sh")])) fail("the VS Code host install failed (output above).", "bash tools/vscode-host/setup.sh");
say("ready");

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return spawnSync("sh", ["-c", `command -v ${command}`], { stdio: "ignore" }).status === 0;
}

function debianPackage(name) {
  try {
    return /Status: install ok installed/.test(execFileSync("dpkg", ["-s", name], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }));
  } catch {
    return false;
  }
}

function run(command, args, env = {}) {
  return spawnSync(command, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, ...env } }).status === 0;
}
