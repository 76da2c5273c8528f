// The typed message protocol between the sidebar webview and the extension. Data shapes only: it
// imports nothing but zod. The webview imports constants.ts and types; the extension validates with the schemas.
export * from "./constants.js";
export * from "./model.js";
export * from "./requests.js";
export * from "./messages.js";
