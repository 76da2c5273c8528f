import { html, nothing, type TemplateResult } from "lit";

/** A view's error line: announced to screen readers at once (role alert). */
export function errorBanner(error: string | null | undefined): TemplateResult | typeof nothing {
  return error ? html`<div class="error-banner" role="alert"><span class="codicon codicon-error" aria-hidden="true"></span>${error}</div>` : nothing;
}
