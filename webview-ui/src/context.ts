import type { SIDEBAR_VIEWS } from "../../src/protocol/constants.js";
import type { BackendInfo } from "../../src/protocol/model.js";
import { Rpc } from "./rpc.js";
import { vscodeApi } from "./vscodeApi.js";

export type View = (typeof SIDEBAR_VIEWS)[number];

/** The one channel to the extension. */
export const rpc = new Rpc(vscodeApi(), window);

/** What survives the webview being hidden and shown again (VS Code reloads it). */
export interface Persisted {
  view: View;
  statuses: string[];
  text: string;
  query: string;
  k: number;
}

const DEFAULTS: Persisted = { view: "memories", statuses: ["active"], text: "", query: "", k: 5 };

export function loadState(): Persisted {
  const raw = vscodeApi().getState();
  return { ...DEFAULTS, ...(typeof raw === "object" && raw !== null ? (raw as Partial<Persisted>) : {}) };
}

export function saveState(patch: Partial<Persisted>): void {
  vscodeApi().setState({ ...loadState(), ...patch });
}

/** The latest session snapshot from the extension. */
export const session: { backend: BackendInfo | null } = { backend: null };
