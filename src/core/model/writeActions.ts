/**
 * What the write path decided for one memory. One list: the engine's type, the MCP tools' output
 * schemas and anything else that names the actions derive from it, so a new action cannot be
 * returned by the engine and refused by a schema.
 */
export const WRITE_ACTIONS = ["added", "updated", "superseded", "duplicate", "quarantined", "skipped"] as const;

export type WriteAction = (typeof WRITE_ACTIONS)[number];
