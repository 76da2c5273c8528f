import { html } from "lit";
import { LightElement } from "./element.js";

/**
 * A destructive action in two steps: the button asks, Confirm does it (Cancel or Escape backs out).
 * Fires `confirm`. VS Code webviews block window.confirm(), and an inline question stays keyboard-reachable.
 */
export class HsConfirm extends LightElement {
  static override properties = {
    label: { type: String },
    icon: { type: String },
    question: { type: String },
    confirmLabel: { type: String, attribute: "confirm-label" },
    disabled: { type: Boolean },
    asking: { state: true },
  };

  declare label: string;
  declare icon: string;
  declare question: string;
  declare confirmLabel: string;
  declare disabled: boolean;
  declare asking: boolean;

  constructor() {
    super();
    this.label = "Delete";
    this.icon = "trash";
    this.question = "Are you sure?";
    this.confirmLabel = "";
    this.disabled = false;
    this.asking = false;
  }

  private ask(): void {
    this.asking = true;
    void this.updateComplete.then(() => (this.querySelector(".confirm-cancel") as HTMLElement | null)?.focus());
  }

  private cancel(): void {
    this.asking = false;
    void this.updateComplete.then(() => (this.querySelector(".confirm-start") as HTMLElement | null)?.focus());
  }

  private confirm(): void {
    this.asking = false;
    this.dispatchEvent(new CustomEvent("confirm", { bubbles: true, composed: true }));
  }

  override render() {
    if (!this.asking) {
      return html`<vscode-button class="confirm-start" secondary icon=${this.icon} ?disabled=${this.disabled} @click=${() => this.ask()}>${this.label}</vscode-button>`;
    }
    return html`<span class="confirm-ask" role="group" aria-label=${this.question} @keydown=${(e: KeyboardEvent) => e.key === "Escape" && this.cancel()}>
      <span class="confirm-question" role="alert">${this.question}</span>
      <vscode-button class="confirm-yes danger" @click=${() => this.confirm()}>${this.confirmLabel || this.label}</vscode-button>
      <vscode-button class="confirm-cancel" secondary @click=${() => this.cancel()}>Cancel</vscode-button>
    </span>`;
  }
}
customElements.define("hs-confirm", HsConfirm);
