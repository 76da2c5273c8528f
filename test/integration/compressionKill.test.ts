import { strict as assert } from "node:assert";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OwnerProcess, type OwnerProcessOptions } from "../../src/extension/ownerProcess.js";
import { childEnv, CLI, ensureBundle, MODEL_DIR } from "../helpers/cliProcess.js";

const SCOPE = "project:compression-kill";
const DEPLOYS = 11;
/** Proposals without waiting a week: the thresholds are settings. */
const CONFIG = { defaultScope: SCOPE, compression: { moreThanItems: 3, moreThanDays: 0 } };
const ROUNDS = 8;

interface Proposal {
  id: string;
  status: string;
  summary_id: string | null;
}
interface Memory {
  id: string;
  status: string;
  compressed_into: string | null;
  content: string;
}

async function rest<T>(o: { url: string; token: string }, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${o.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${o.token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const events = (o: OwnerProcess, status: string) => rest<{ memories: Memory[] }>(o, "GET", `/memories?scope=${encodeURIComponent(SCOPE)}&type=event&status=${status}&limit=100`).then((r) => r.memories);

describe("integration: the owner killed with SIGKILL while it approves a compression (real processes, LanceDB, the real model)", function () {
  this.timeout(600_000);
  let root = "";
  let template = "";
  let proposalId = "";
  const options = (storePath: string): OwnerProcessOptions => ({
    cliPath: CLI,
    env: childEnv(root),
    start: { storePath, port: 0, modelDir: MODEL_DIR, allowDownload: false, cacheDir: join(root, "models"), config: CONFIG, tokens: [], llm: null },
  });

  before(async () => {
    ensureBundle();
    root = await mkdtemp(join(tmpdir(), "hindsight-compression-kill-"));
    template = join(root, "template");
    const owner = await OwnerProcess.start(options(template));
    try {
      for (let i = 1; i <= DEPLOYS; i++) {
        await rest(owner, "POST", "/memories", { content: `Billing deploy ${i} shipped ${i * 3} migrations to region eu-${i}.`, type: "event", subject: "project", scope: SCOPE });
      }
      const { proposals } = await rest<{ proposals: Proposal[] }>(owner, "POST", "/proposals", { scope: SCOPE });
      assert.equal(proposals.length, 1, JSON.stringify(proposals));
      proposalId = proposals[0]!.id;
    } finally {
      await owner.stop();
    }
  });
  after(() => rm(root, { recursive: true, force: true }));

  it(`${ROUNDS} kills spread over an approval: each reopened store holds the proposal pending with every original, or approved with one summary and every original archived into it`, async () => {
    // How long an approval takes here, so the kills fall before, inside and after it.
    const timing = join(root, "timing");
    await cp(template, timing, { recursive: true });
    const timed = await OwnerProcess.start(options(timing));
    const t0 = performance.now();
    await rest(timed, "POST", `/proposals/${proposalId}/approve`);
    const approveMs = performance.now() - t0;
    await timed.stop();

    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const dir = join(root, `round-${round}`);
      await cp(template, dir, { recursive: true });
      const owner = await OwnerProcess.start(options(dir));
      const delay = (approveMs * 1.2 * round) / (ROUNDS - 1);
      const approving = rest(owner, "POST", `/proposals/${proposalId}/approve`).then(
        () => "answered",
        () => "cut",
      );
      await new Promise((r) => setTimeout(r, delay));
      process.kill(owner.pid, "SIGKILL");
      const answer = await approving;

      const next = await OwnerProcess.start(options(dir));
      try {
        const { proposals } = await rest<{ proposals: Proposal[] }>(next, "GET", `/proposals?scope=${encodeURIComponent(SCOPE)}`);
        const proposal = proposals.find((p) => p.id === proposalId);
        assert.ok(proposal, `round ${round}: the proposal is gone`);
        const active = await events(next, "active");
        const archived = await events(next, "archived");
        if (answer === "answered") assert.equal(proposal.status, "approved", `round ${round}: an answered approval must stand`);
        if (proposal.status === "approved") {
          assert.equal(active.length, 1, `round ${round}: only the summary is active: ${JSON.stringify(active.map((m) => m.content))}`);
          assert.equal(active[0]!.id, proposal.summary_id);
          assert.equal(archived.filter((m) => m.compressed_into === proposal.summary_id).length, DEPLOYS, `round ${round}: originals not archived into the summary`);
        } else {
          assert.equal(proposal.status, "pending", `round ${round}: ${proposal.status}`);
          assert.equal(proposal.summary_id, null);
          assert.equal(active.length, DEPLOYS, `round ${round}: the originals are active and no summary is`);
          // And the approval can be made now.
          const again = await rest<{ proposal: Proposal }>(next, "POST", `/proposals/${proposalId}/approve`);
          assert.equal(again.proposal.status, "approved");
          assert.equal((await events(next, "active")).length, 1);
        }
        outcomes.push(`${Math.round(delay)}ms:${answer}/${proposal.status}`);
      } finally {
        await next.stop();
      }
    }
    console.log(`      approval ${approveMs.toFixed(0)} ms; kills: ${outcomes.join(", ")}`);
  });
});
