import { readFileSync } from "node:fs";
import { cpus, release, totalmem, type } from "node:os";

export interface MachineInfo {
  cpus: number;
  cpu_model: string;
  memory_gb: number;
  node: string;
  os: string;
  /** What the person running the benchmark adds (e.g. "shared with other jobs"). */
  note: string | null;
}

function osName(): string {
  try {
    const m = readFileSync("/etc/os-release", "utf8").match(/^PRETTY_NAME="?([^"\n]+)"?/m);
    if (m?.[1]) return m[1];
  } catch {
    // not Linux, or no os-release: the kernel's name will do
  }
  return `${type()} ${release()}`;
}

export function describeMachine(note: string | null = null): MachineInfo {
  const list = cpus();
  return {
    cpus: list.length,
    cpu_model: list[0]?.model.trim() ?? "unknown",
    memory_gb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: osName(),
    note,
  };
}
