import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** A free TCP port on loopback (bound and released: a tiny race, acceptable in tests). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface RedisProcess {
  url: string;
  port: number;
  password: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  start(): Promise<void>;
}

/**
 * A real redis-server of the test's own, on a free loopback port, nothing kept on disk, password
 * required: the machine's shared Redis is not stopped and started by tests.
 */
export async function startRedis(password = "test-redis-password-0123456789"): Promise<RedisProcess> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async (): Promise<void> => {
    const c = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--requirepass", password], { stdio: ["ignore", "pipe", "pipe"] });
    child = c;
    let out = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
      c.stdout!.on("data", (d: Buffer) => {
        out += d.toString("utf8");
        if (/Ready to accept connections/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      c.once("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    });
  };
  const stop = async (): Promise<void> => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill("SIGTERM");
    });
  };
  await start();
  return { url: `redis://:${password}@127.0.0.1:${port}`, port, password, stop, start };
}
