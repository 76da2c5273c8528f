// The sidebar webview, for activate(): registerSidebar() plus what it needs from the caller.
export { registerSidebar, SIDEBAR_VIEW_ID, type SidebarDeps, type SidebarHandle } from "./provider.js";
export { MementoRunHistory, MemoryRunHistory, type RunHistory } from "./history.js";
export { EvalFolderSuites, type SuiteSource } from "./suites.js";
export type { SidebarBackendTarget } from "./backend.js";
