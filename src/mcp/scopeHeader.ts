/**
 * The header with which a client names the scope of its session (percent-encoded): `hindsight mcp`
 * run in another folder than the store's owner, or the editor's active folder. Its own module, free
 * of the SDK, so the extension can name it without bundling the server side.
 */
export const SCOPE_HEADER = "x-hindsight-scope";
