import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import type { HostMessage } from "../../src/protocol/messages.js";
import { sidebarHtml } from "../../src/extension/sidebar/html.js";
import { SidebarRouter, type SidebarRouterDeps } from "../../src/extension/sidebar/router.js";
import { DEFAULT_WEBVIEW_CSS, THEMES, themeVariables, type ThemeName } from "./themes.js";

// Browser globals inside page.evaluate / addInitScript callbacks (tests compile without the DOM lib).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
declare const window: any, document: any;

/** The checkout (out/test/webview → three levels up). */
export const ROOT = resolve(__dirname, "../../..");
export const BUNDLE_DIR = join(ROOT, "dist", "webview");
export const SCREENSHOT_DIR = join(ROOT, "test-results", "webview");
/** Where the harness "serves" the webview from: VS Code's cspSource is such an origin. */
export const ORIGIN = "https://hindsight-webview.test";
export const CHROMIUM = process.env.HINDSIGHT_CHROMIUM ?? "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"];

function newest(dir: string): number {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** Builds dist/webview (npm run build's webview step and the codicon copy) when missing or older than its sources. */
export function ensureWebviewBundle(): void {
  const main = join(BUNDLE_DIR, "main.js");
  const codicons = join(BUNDLE_DIR, "codicons", "codicon.css");
  const sources = Math.max(newest(join(ROOT, "webview-ui", "src")), newest(join(ROOT, "src", "protocol")));
  if (!existsSync(main) || statSync(main).mtimeMs < sources) execFileSync(process.execPath, [join(ROOT, "esbuild.js")], { cwd: ROOT, stdio: "inherit" });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (!existsSync(codicons)) (require(join(ROOT, "webview-ui", "build-assets.js")) as { copyWebviewAssets(): void }).copyWebviewAssets();
  if (!existsSync(main)) throw new Error("dist/webview/main.js was not built");
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

const TYPES: Record<string, string> = {
  ".js": "text/javascript",
  ".css": "text/css",
  ".ttf": "font/ttf",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** What VS Code adds to a webview page before it loads: theme variables on <html>, the body class, the default stylesheet (ahead of the page's CSP, as VS Code does). */
function asVsCodeServesIt(page: string, theme: ThemeName): string {
  const t = THEMES[theme];
  const style = Object.entries(themeVariables(t))
    .map(([k, v]) => `${k}: ${v}`)
    .join("; ");
  return page
    .replace("<html lang=\"en\">", `<html lang="en" style="${style.replace(/"/g, "&quot;")}">`)
    .replace("<head>", `<head>\n<style id="_defaultStyles">${DEFAULT_WEBVIEW_CSS}</style>`)
    .replace("<body>", `<body class="${t.bodyClass}" data-vscode-theme-kind="${t.kind}" data-vscode-theme-id="${t.id}">`);
}

export interface OpenOptions extends Omit<SidebarRouterDeps, "post"> {
  theme?: ThemeName;
  /** The page's Date.now() (the engine's fixed clock), so "3 d ago" matches the seeded data. */
  pageTime?: number;
  width?: number;
  height?: number;
}

/**
 * The built webview bundle in headless Chromium, in a page made by the extension's own sidebarHtml()
 * under its CSP, with acquireVsCodeApi() stubbed: every postMessage goes through
 * page.exposeFunction to a SidebarRouter in this Node process (and from there over REST to a real
 * server); the router's replies come back as window message events, as in VS Code.
 */
export class SidebarPage {
  /** Every message the webview sent and the router posted, in order. */
  readonly sent: unknown[] = [];
  readonly received: HostMessage[] = [];
  readonly pageErrors: string[] = [];
  readonly consoleErrors: string[] = [];
  /** Every message with the time it crossed (performance.now() of this process): "in" from the webview, "out" to it. */
  readonly timeline: Array<{ at: number; dir: "in" | "out"; message: unknown }> = [];
  private closed = false;

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly router: SidebarRouter,
  ) {}

  static async open(browser: Browser, options: OpenOptions): Promise<SidebarPage> {
    const theme = options.theme ?? "dark";
    const context = await browser.newContext({ viewport: { width: options.width ?? 380, height: options.height ?? 760 }, deviceScaleFactor: 1, colorScheme: theme === "light" ? "light" : "dark" });
    const page = await context.newPage();
    if (options.pageTime !== undefined) await page.clock.setFixedTime(options.pageTime);
    let self: SidebarPage | null = null;
    const router = new SidebarRouter({
      ...options,
      post: (message: HostMessage) => {
        if (!self || self.closed) return;
        self.received.push(message);
        self.timeline.push({ at: performance.now(), dir: "out", message });
        return page.evaluate((m) => window.postMessage(m, "*"), message as unknown as Record<string, unknown>).catch(() => undefined);
      },
    });
    self = new SidebarPage(context, page, router);
    const s = self;
    page.on("pageerror", (err) => s.pageErrors.push(err.message));
    page.on("console", (msg) => {
      if (msg.type() === "error") s.consoleErrors.push(msg.text());
    });
    await page.exposeFunction("__hindsightToExtension", (message: unknown) => {
      s.sent.push(message);
      s.timeline.push({ at: performance.now(), dir: "in", message });
      void router.handle(message);
    });
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown>;
      let state: unknown = undefined;
      let acquired = false;
      w.__cspViolations = [];
      document.addEventListener("securitypolicyviolation", (e: { violatedDirective: string; blockedURI: string }) => (w.__cspViolations as string[]).push(`${e.violatedDirective} ${e.blockedURI}`));
      w.acquireVsCodeApi = () => {
        if (acquired) throw new Error("An instance of the VS Code API has already been acquired");
        acquired = true;
        return {
          postMessage: (m: unknown) => (w.__hindsightToExtension as (m: unknown) => void)(m),
          getState: () => state,
          setState: (s: unknown) => {
            state = s;
            return s;
          },
        };
      };
    });
    await page.route(`${ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === "/" || url.pathname === "/index.html") {
        const html = sidebarHtml({
          cspSource: ORIGIN,
          nonce: "bm9uY2UtZm9yLXRlc3Rz",
          scriptUri: `${ORIGIN}/bundle/main.js`,
          styleUri: `${ORIGIN}/bundle/main.css`,
          codiconUri: `${ORIGIN}/bundle/codicons/codicon.css`,
        });
        await route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: asVsCodeServesIt(html, theme) });
        return;
      }
      if (url.pathname.startsWith("/bundle/")) {
        const file = resolve(BUNDLE_DIR, `.${decodeURIComponent(url.pathname.slice("/bundle".length))}`);
        if (file.startsWith(BUNDLE_DIR) && existsSync(file)) {
          await route.fulfill({ status: 200, contentType: TYPES[extname(file)] ?? "application/octet-stream", body: readFileSync(file) });
          return;
        }
      }
      await route.fulfill({ status: 404, body: "not found" });
    });
    await page.goto(`${ORIGIN}/index.html`);
    return self;
  }

  /** Switches the theme live, as VS Code does when the user changes it. */
  async setTheme(theme: ThemeName): Promise<void> {
    const t = THEMES[theme];
    await this.page.evaluate(
      ({ vars, bodyClass, kind, id }) => {
        const style = document.documentElement.style;
        for (let i = style.length - 1; i >= 0; i--) {
          const name = style.item(i);
          if (name.startsWith("--vscode-")) style.removeProperty(name);
        }
        for (const [k, v] of Object.entries(vars)) style.setProperty(k, v);
        document.body.classList.remove("vscode-light", "vscode-dark", "vscode-high-contrast");
        document.body.classList.add(bodyClass);
        document.body.dataset.vscodeThemeKind = kind;
        document.body.dataset.vscodeThemeId = id;
      },
      { vars: themeVariables(t), bodyClass: t.bodyClass, kind: t.kind, id: t.id },
    );
    await this.page.emulateMedia({ colorScheme: theme === "light" ? "light" : "dark" });
  }

  async cspViolations(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
  }

  /** Saves test-results/webview/<name>.png. */
  async screenshot(name: string): Promise<string> {
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    const path = join(SCREENSHOT_DIR, `${name}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.context.close();
  }
}
