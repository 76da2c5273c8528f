/** What a token may do: read (recall, list, get, stats, export), write (write, ingest, edit, forget), admin (review, quarantine, audit, import, eval, metrics). */
export const PERMISSIONS = ["read", "write", "admin"] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Every project: the token's `projects` is "*". */
export const ALL_PROJECTS = "*";

/** An authenticated token: its id (the audit actor is `token:<id>`), what it may do, where, and how often. */
export interface Grant {
  id: string;
  permissions: ReadonlySet<Permission>;
  /** Memory scopes (project:…, team:…, user:…) the token may use, or "*" for every scope. */
  projects: typeof ALL_PROJECTS | ReadonlySet<string>;
  /** Its own rate limit (requests per second and burst) instead of the server's; rate 0: unlimited. */
  limit?: { rate: number; burst: number };
}

/** A plain server token (hindsight serve --token, the extension's local server): everything, everywhere. */
export function fullGrant(id: string): Grant {
  return { id, permissions: new Set(PERMISSIONS), projects: ALL_PROJECTS };
}

export function isFullGrant(grant: Grant): boolean {
  return grant.projects === ALL_PROJECTS && PERMISSIONS.every((p) => grant.permissions.has(p));
}

export function mayUse(grant: Grant, scope: string): boolean {
  return grant.projects === ALL_PROJECTS || grant.projects.has(scope);
}

/** A stable description of what a grant allows: an MCP session opened under one grant ends when the grant changes. */
export function grantKey(grant: Grant): string {
  const projects = grant.projects === ALL_PROJECTS ? ALL_PROJECTS : [...grant.projects].sort().join(",");
  return `${grant.id}|${[...grant.permissions].sort().join(",")}|${projects}`;
}

export function describeProjects(grant: Grant): string {
  return grant.projects === ALL_PROJECTS ? "every project" : [...grant.projects].sort().join(", ");
}
