import type { EngineConfig } from "../config.js";
import type { MemoryRecord } from "../model/memory.js";

const DAY = 86_400_000;

export interface ScoreFactors {
  relevance: number;
  confidence: number;
  timeDecay: number;
  accessBoost: number;
}

/** time_decay = exp(-λ_type · days since last stated or confirmed). */
export function timeDecay(memory: Pick<MemoryRecord, "type" | "confirmedAt" | "pinned">, now: number, config: EngineConfig): number {
  if (memory.pinned) return 1;
  const days = Math.max(0, now - memory.confirmedAt) / DAY;
  return Math.exp(-config.decayPerDay[memory.type] * days);
}

export function accessBoost(accessCount: number, config: EngineConfig): number {
  return 1 - Math.exp(-accessCount / config.accessScale);
}

/** final = w_r·relevance + w_c·confidence + w_d·time_decay + w_a·access_boost (weights from configuration). */
export function finalScore(f: ScoreFactors, config: EngineConfig): number {
  const w = config.weights;
  return w.relevance * f.relevance + w.confidence * f.confidence + w.timeDecay * f.timeDecay + w.access * f.accessBoost;
}
