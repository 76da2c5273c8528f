import { randomBytes } from "node:crypto";

export interface SidebarHtmlOptions {
  /** webview.cspSource: the origin the webview's local resources are served from. */
  cspSource: string;
  /** A fresh nonce per page load (newNonce()). */
  nonce: string;
  /** Webview URIs (webview.asWebviewUri) of the built bundle. */
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
}

/** 128 random bits, base64: the nonce the one script and the stylesheets of a page load carry. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

const escapeAttr = (s: string): string => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The sidebar's HTML page. A strict Content-Security-Policy: nothing loads but the bundle's
 * script (by nonce), its stylesheets and fonts (from cspSource), and no connections: the webview
 * talks to the extension only through postMessage. Styles set through the CSSOM (Lit, the
 * adopted stylesheets of @vscode-elements) need no 'unsafe-inline'.
 */
export function sidebarHtml(o: SidebarHtmlOptions): string {
  const nonce = escapeAttr(o.nonce);
  const csp = [
    "default-src 'none'",
    `img-src ${o.cspSource} data:`,
    `font-src ${o.cspSource}`,
    `style-src ${o.cspSource} 'nonce-${o.nonce}'`,
    `script-src 'nonce-${o.nonce}'`,
    "connect-src 'none'",
    "frame-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" id="vscode-codicon-stylesheet" href="${escapeAttr(o.codiconUri)}" nonce="${nonce}">
<link rel="stylesheet" href="${escapeAttr(o.styleUri)}" nonce="${nonce}">
<title>Hindsight</title>
</head>
<body>
<div id="root" aria-busy="true"></div>
<script type="module" nonce="${nonce}" src="${escapeAttr(o.scriptUri)}"></script>
</body>
</html>
`;
}
