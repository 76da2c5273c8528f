import { spawn } from "node:child_process";
import { join } from "node:path";

export interface FakeQdrantProcess {
  /** Where the FAKE Qdrant REST endpoints answer. */
  url: string;
  /** Stops the process and waits for it to exit. */
  close(): Promise<void>;
}

/** Spawns test/helpers/qdrantFakeMain.ts (compiled beside this file) and waits for its URL. */
export async function startFakeQdrantProcess(): Promise<FakeQdrantProcess> {
  const main = join(__dirname, "qdrantFakeMain.js");
  const child = spawn(process.execPath, [main], { stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the fake Qdrant process printed no URL: ${out}`)), 10_000);
    child.once("exit", (code) => reject(new Error(`the fake Qdrant process exited (${code}) before it listened: ${out}`)));
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      const line = out.split("\n").find((l) => l.startsWith("http://"));
      if (line) {
        clearTimeout(timer);
        resolve(line.trim());
      }
    });
  });
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
  return {
    url,
    close: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}
