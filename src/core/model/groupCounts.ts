import { HindsightError } from "../errors.js";
import type { MemoryGroupCount } from "../ports.js";
import { LAYERS, LayerSchema, MEMORY_TYPES, MemoryTypeSchema } from "./memory.js";

/**
 * Counts per layer and type, in the order the views show them (L1 before L2, types as declared),
 * groups with none left out. A stored value that is no layer or type is a STORE_ERROR, not a row
 * quietly left out of the count.
 */
export function groupCounts(rows: Array<{ layer: unknown; type: unknown }>): MemoryGroupCount[] {
  const counts = new Map<string, number>();
  for (const r of rows) {
    const layer = LayerSchema.safeParse(r.layer);
    const type = MemoryTypeSchema.safeParse(r.type);
    if (!layer.success || !type.success) {
      throw new HindsightError("STORE_ERROR", `a stored memory has layer ${JSON.stringify(r.layer)} and type ${JSON.stringify(r.type)}, which this version cannot count`, {
        details: { field: layer.success ? "type" : "layer" },
      });
    }
    const key = `${layer.data} ${type.data}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return LAYERS.flatMap((layer) => MEMORY_TYPES.flatMap((type) => {
    const count = counts.get(`${layer} ${type}`) ?? 0;
    return count > 0 ? [{ layer, type, count }] : [];
  }));
}
