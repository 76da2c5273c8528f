export { PROFILE_MAX_ITEMS, PROFILE_MIN_CONFIDENCE, buildProfile } from "../../core/ops/profile.js";

/**
 * Reserved expansion ({+scope}): a scope may hold "/" (project:github.com/acme/shop), which a
 * simple {scope} never matches, so the raw form would be "not found". Both the raw and the
 * percent-encoded form match and name the same scope.
 */
export const PROFILE_URI_TEMPLATE = "memory://profile/{+scope}";

/** The profile URI of a scope, percent-encoded (what the resource list shows; the raw form is accepted as well). */
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
