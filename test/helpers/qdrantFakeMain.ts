import { startFakeQdrant } from "../contract/qdrantFake.js";

/**
 * The FAKE Qdrant REST endpoints (test/contract/qdrantFake.ts) as a process of their own, for tests
 * that run replicas as real processes: the test process then serves none of the store's requests.
 * Prints its URL on stdout; stops on SIGTERM or when its parent closes stdin.
 */
void startFakeQdrant().then((fake) => {
  process.stdout.write(`${fake.url}\n`);
  const stop = (): void => {
    void fake.close().finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.stdin.on("end", stop);
  process.stdin.resume();
});
