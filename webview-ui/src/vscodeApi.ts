/** What VS Code gives a webview (acquireVsCodeApi may be called once per page). */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | null = null;

export function vscodeApi(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}
