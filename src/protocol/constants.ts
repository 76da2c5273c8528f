// Values the webview needs at run time. Kept free of zod so the webview bundle does not carry it:
// the webview imports only these constants and types (`import type`) from src/protocol.

/** Bumped when a message changes shape; the extension refuses a webview of another version. */
export const PROTOCOL_VERSION = 1;

export const MEMORY_LAYERS = ["L1", "L2", "L3"] as const;
export const MEMORY_TYPES = ["task_state", "preference", "constraint", "fact", "event"] as const;
export const MEMORY_STATUSES = ["active", "superseded", "archived", "quarantined"] as const;
export const PROPOSAL_STATUSES = ["pending", "approved", "rejected", "rolled_back"] as const;

/** The sidebar's tabs, in order. */
export const SIDEBAR_VIEWS = ["memories", "recall", "review", "tests", "activity"] as const;

/** Most rows one memories.page request returns. */
export const MAX_PAGE = 500;

/** Parts of the data the extension can tell the webview to load again. */
export const TOPICS = ["memories", "review", "tests", "activity"] as const;
