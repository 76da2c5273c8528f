export { PROFILE_MAX_ITEMS, PROFILE_MIN_CONFIDENCE, buildProfile } from "../../core/ops/profile.js";

export const PROFILE_URI_TEMPLATE = "memory://profile/{scope}";

/** The profile URI of a scope; scopes may hold "/" (project:github.com/owner/repo), so the scope is percent-encoded. */
export function profileUri(scope: string): string {
  return `memory://profile/${encodeURIComponent(scope)}`;
}

export function scopeFromUriVariable(value: string | string[] | undefined): string {
  const raw = Array.isArray(value) ? value.join(",") : (value ?? "");
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
