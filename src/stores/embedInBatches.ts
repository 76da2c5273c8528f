/** Texts per embedder call while re-embedding a store: the whole store in one call would hand the model every text at once. */
const REEMBED_BATCH = 64;

/** Vectors for `texts`, in order, embedded a batch at a time. */
export async function embedInBatches(texts: string[], embed: (texts: string[]) => Promise<Float32Array[]>): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += REEMBED_BATCH) out.push(...(await embed(texts.slice(i, i + REEMBED_BATCH))));
  return out;
}
