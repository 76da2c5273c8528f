import type { EngineConfigInput } from "../core/config.js";
import type { LocomoVariant } from "./locomo.js";

const OLD_SOURCES = ["vector", "fullText"] as const;

/**
 * The settings `bench locomo --cv` chooses among. "old" is the retrieval before issue 17 (vector and
 * full text fused by score) with its fusion blend varied; "new" adds the temporal and entity
 * retrievers with their weights varied. Each system's first setting is its shipping default.
 */
export function locomoVariants(): LocomoVariant[] {
  // The old retrieval as it shipped: two retrievers, the second opinion at 0.2.
  const old = (name: string, recall: NonNullable<EngineConfigInput["recall"]>): LocomoVariant => ({
    name: `old-${name}`,
    system: "old",
    config: { recall: { secondOpinionWeight: 0.2, ...recall, candidateSources: [...OLD_SOURCES] } },
  });
  const neu = (name: string, recall: NonNullable<EngineConfigInput["recall"]>): LocomoVariant => ({ name: `new-${name}`, system: "new", config: { recall } });
  return [
    old("default", {}),
    old("vector-heavy", { fusion: { vector: 0.55, fullText: 0.3, coverage: 0.15 } }),
    old("text-heavy", { fusion: { vector: 0.4, fullText: 0.4, coverage: 0.2 } }),
    old("second0.1", { secondOpinionWeight: 0.1 }),
    neu("default", {}),
    neu("t0.4", { temporalWeight: 0.4 }),
    neu("t1", { temporalWeight: 1 }),
    neu("second0.1", { secondOpinionWeight: 0.1 }),
    neu("e0.05", { entityWeight: 0.05 }),
    neu("kind0.1", { answerKindBonus: 0.1 }),
    neu("no-entity", { candidateSources: ["vector", "fullText", "temporal"] }),
  ];
}
