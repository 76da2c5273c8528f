/** Small numeric helpers shared by the comparison's workloads. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

export function mean(xs: number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

export function round1(x: number): number {
  return Math.round(x * 10) / 10;
}

/** p50 and p95 of a list of milliseconds, rounded to 0.1 ms. */
export function p50p95(times: number[]): { p50: number; p95: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: round1(percentile(sorted, 0.5)), p95: round1(percentile(sorted, 0.95)) };
}

export async function timed<T>(op: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await op();
  return { ms: performance.now() - t, value };
}
