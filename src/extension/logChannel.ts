import type * as vscode from "vscode";
import type { Logger } from "../core/ports.js";

/** The engine's Logger port on a LogOutputChannel ("Hindsight" in the Output view; level set by the user there). */
export function channelLogger(channel: vscode.LogOutputChannel): Logger {
  const fmt = (message: string, fields?: Record<string, unknown>) => (fields ? `${message} ${JSON.stringify(fields)}` : message);
  return {
    debug: (m, f) => channel.debug(fmt(m, f)),
    info: (m, f) => channel.info(fmt(m, f)),
    warn: (m, f) => channel.warn(fmt(m, f)),
    error: (m, f) => channel.error(fmt(m, f)),
  };
}
