import type { MemoryRecord } from "../core/model/memory.js";

export function print(line = ""): void {
  process.stdout.write(`${line}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function describeMemory(m: MemoryRecord): string {
  const until = m.validUntil !== null ? ` until ${new Date(m.validUntil).toISOString().slice(0, 10)}` : "";
  return `${m.id.slice(0, 8)}  ${m.layer} ${m.type.padEnd(10)} ${m.confidence.toFixed(2)}  ${m.content}${until}`;
}
