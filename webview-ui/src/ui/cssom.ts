import { noChange } from "lit";
import { Directive, directive, PartType, type AttributePart, type PartInfo } from "lit/directive.js";

/**
 * Sets inline styles through the CSSOM only (`style=${cssom({ width: "40%" })}`). Lit's styleMap
 * writes the style attribute as text on first render, which a CSP without 'unsafe-inline' blocks;
 * style.setProperty is allowed.
 */
class CssomStyle extends Directive {
  private previous = new Set<string>();

  constructor(info: PartInfo) {
    super(info);
    if (info.type !== PartType.ATTRIBUTE || info.name !== "style") throw new Error("cssom() must be bound to the style attribute");
  }

  render(_props: Record<string, string>): typeof noChange {
    return noChange;
  }

  override update(part: AttributePart, [props]: [Record<string, string>]): typeof noChange {
    const style = part.element.style;
    for (const name of this.previous) if (!(name in props)) style.removeProperty(name);
    for (const [name, value] of Object.entries(props)) if (style.getPropertyValue(name) !== value) style.setProperty(name, value);
    this.previous = new Set(Object.keys(props));
    return noChange;
  }
}

export const cssom = directive(CssomStyle);
