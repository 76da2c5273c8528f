import { LitElement } from "lit";

/**
 * Our elements render into the light DOM: the page's stylesheet (theme variables, codicons) styles
 * them, and the accessibility tree is one document.
 */
export class LightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}

/**
 * A tab's content: loads when first shown and when told its data is stale; a stale view that is
 * hidden loads when it is shown again.
 */
export abstract class ViewElement extends LightElement {
  private shown = false;
  private stale = true;

  protected abstract load(): Promise<void>;

  /** The tab became visible (true) or hidden (false). */
  setShown(shown: boolean): void {
    this.shown = shown;
    if (shown && this.stale) this.refresh();
  }

  get isShown(): boolean {
    return this.shown;
  }

  /** The data changed: load again now if visible, else when shown. */
  invalidate(): void {
    this.stale = true;
    if (this.shown) this.refresh();
  }

  protected refresh(): void {
    this.stale = false;
    void this.load();
  }
}
