import type { EngineConfigInput } from "../../core/config.js";
import { MemoryEngine } from "../../core/engine.js";
import { spokenBy } from "../../core/model/turnText.js";
import type { Embedder, MemoryStore } from "../../core/ports.js";
import { SteppedClock } from "../../eval/runner.js";
import { CATEGORY_NAMES } from "../locomo.js";
import { normaliseEvidence, sessionsOf, turnContent, type LocomoSample } from "../locomoData.js";
import { graphRecall, type GraphRecallMode } from "./graphRecall.js";
import type { KnowledgeGraphMemory, StartKnowledgeGraph } from "./ports.js";
import { mean, p50p95, round1, round3, timed } from "./stats.js";
import type { SystemId } from "./systems.js";

/** One dialogue turn as every system receives it: the same text (with a shared photo's caption), speaker and time. */
export interface LocomoTurnInput {
  diaId: string;
  speaker: string;
  text: string;
  sessionIndex: number;
  sessionAt: number;
  at: number;
}

/** One conversation stored in one system (a fresh store or graph per conversation). */
export interface ConversationMemory {
  add(turn: LocomoTurnInput): Promise<void>;
  /** The top-k results, best first, each as the dia_ids it came from. */
  recall(system: SystemId, question: string, k: number): Promise<string[][]>;
  /** What the system holds after ingest (memories, entities). */
  count(): Promise<number>;
  close(): Promise<void>;
}

/** A system (or variants sharing one store: the official server's two query styles) that can hold conversations. */
export interface LocomoSubject {
  systems: SystemId[];
  open(sampleId: string): Promise<ConversationMemory>;
}

export interface LocomoSystemResult {
  questions: number;
  overall: Record<string, number>;
  by_category: Record<string, Record<string, number>>;
  questions_by_category: Record<string, number>;
  /** Questions for which at least one result came back. */
  answered_share: number;
  stored: number;
  turns: number;
  ingest_s: number;
  recall_p50_ms: number;
  recall_p95_ms: number;
}

/**
 * hindsight configurations that store alike (the same write settings): every turn goes once through
 * engine.ingest, exactly as `bench locomo` does, and each configuration then recalls from that store
 * with its own recall settings (the engine is reconfigured between them).
 */
export function engineSubject(
  configs: Array<{ system: SystemId; config: EngineConfigInput }>,
  deps: { embedder: Embedder; newStore: (name: string) => Promise<MemoryStore>; disposeStore?: (store: MemoryStore) => Promise<void> },
): LocomoSubject {
  const first = configs[0];
  if (!first) throw new Error("engineSubject: no configuration");
  const writes = new Set(configs.map((c) => JSON.stringify(c.config.write ?? {})));
  if (writes.size !== 1) throw new Error("engineSubject: configurations that store differently cannot share a store");
  return {
    systems: configs.map((c) => c.system),
    open: async (sampleId) => {
      const clock = new SteppedClock();
      const store = await deps.newStore(`${configs.map((c) => c.system).join("-")}-${sampleId}`);
      const fixed = { defaultScope: `project:${sampleId}`, actor: "bench" };
      const engine = new MemoryEngine({ store, embedder: deps.embedder, clock }, { ...first.config, ...fixed });
      await engine.open();
      let lastSessionAt = 0;
      let current = first.system;
      return {
        add: async (t) => {
          clock.set(t.at);
          lastSessionAt = Math.max(lastSessionAt, t.sessionAt);
          await engine.ingest({ user: t.text, speaker: t.speaker, ref: t.diaId, sessionId: `session_${t.sessionIndex}` });
        },
        recall: async (system, question, k) => {
          if (system !== current) {
            const config = configs.find((c) => c.system === system)?.config;
            if (!config) throw new Error(`engineSubject: no configuration for ${system}`);
            engine.reconfigure({ ...config, ...fixed });
            current = system;
          }
          clock.set(lastSessionAt + 86_400_000);
          const r = await engine.recall({ query: question, k });
          return r.memories.slice(0, k).map((m) => m.sourceRefs);
        },
        count: () => engine.count(),
        close: async () => {
          await engine.close();
          await deps.disposeStore?.(store);
        },
      };
    },
  };
}

/** The official memory server: one entity per turn (name = its dia_id), the speaker and what was said as its observation. */
export function graphSubject(systems: SystemId[], start: StartKnowledgeGraph, fileFor: (sampleId: string) => string): LocomoSubject {
  const modeOf = (s: SystemId): GraphRecallMode => (s === "server-memory-keywords" ? "keywords" : "question");
  return {
    systems,
    open: async (sampleId) => {
      const graph: KnowledgeGraphMemory = await start(fileFor(sampleId));
      return {
        add: async (t) => {
          const created = await graph.createEntities([{ name: t.diaId, entityType: "dialogue turn", observations: [spokenBy(t.speaker, t.text)] }]);
          if (created.length !== 1) throw new Error(`server-memory did not store turn ${t.diaId}`);
        },
        recall: async (system, question, k) => (await graphRecall(graph, question, k, modeOf(system))).map((e) => [e.name]),
        count: async () => (await graph.readGraph()).length,
        close: () => graph.close(),
      };
    },
  };
}

interface Scored {
  category: string;
  recall: Record<string, number>;
  answered: boolean;
}

/**
 * Evidence recall@k for every subject on the same conversations: each conversation is stored fresh
 * in each system, every scored question is asked once with the same text and k = max(ks), and the
 * dia_ids behind the top-k results are compared with the question's evidence (the rule of `bench locomo`).
 */
export async function runLocomoCompare(
  samples: LocomoSample[],
  subjects: LocomoSubject[],
  options: { ks: number[]; conversations?: number; onProgress?: (message: string) => void },
): Promise<Partial<Record<SystemId, LocomoSystemResult>>> {
  const maxK = Math.max(...options.ks);
  const chosen = samples.slice(0, options.conversations ?? samples.length);
  const out: Partial<Record<SystemId, LocomoSystemResult>> = {};
  for (const subject of subjects) {
    const scored = new Map<SystemId, Scored[]>(subject.systems.map((s) => [s, []]));
    const times = new Map<SystemId, number[]>(subject.systems.map((s) => [s, []]));
    let stored = 0;
    let turns = 0;
    let ingestMs = 0;
    for (const sample of chosen) {
      const memory = await subject.open(sample.sample_id);
      try {
        const validIds = new Set<string>();
        const t0 = performance.now();
        for (const session of sessionsOf(sample)) {
          for (const [i, turn] of session.turns.entries()) {
            validIds.add(turn.dia_id);
            await memory.add({ diaId: turn.dia_id, speaker: turn.speaker, text: turnContent(turn), sessionIndex: session.index, sessionAt: session.at, at: session.at + i * 30_000 });
            turns++;
          }
        }
        ingestMs += performance.now() - t0;
        stored += await memory.count();
        for (const qa of sample.qa) {
          const category = String(qa.category);
          if (!(category in CATEGORY_NAMES)) continue;
          const evidence = normaliseEvidence(qa.evidence, validIds);
          if (evidence.length === 0) continue;
          for (const system of subject.systems) {
            const { ms, value: results } = await timed(() => memory.recall(system, qa.question, maxK));
            times.get(system)?.push(ms);
            const s: Scored = { category, recall: {}, answered: results.length > 0 };
            for (const k of options.ks) {
              const linked = new Set(results.slice(0, k).flat());
              s.recall[k] = evidence.filter((e) => linked.has(e)).length / evidence.length;
            }
            scored.get(system)?.push(s);
          }
        }
      } finally {
        await memory.close();
      }
      options.onProgress?.(`locomo ${subject.systems.join("+")}: ${sample.sample_id} done`);
    }
    for (const system of subject.systems) {
      const lat = p50p95(times.get(system) ?? []);
      out[system] = {
        ...summarise(scored.get(system) ?? [], options.ks),
        stored,
        turns,
        ingest_s: round1(ingestMs / 1000),
        recall_p50_ms: lat.p50,
        recall_p95_ms: lat.p95,
      };
    }
  }
  return out;
}

function summarise(scored: Scored[], ks: number[]): Pick<LocomoSystemResult, "questions" | "overall" | "by_category" | "questions_by_category" | "answered_share"> {
  const overall: Record<string, number> = {};
  const byCategory: Record<string, Record<string, number>> = {};
  const questionsByCategory: Record<string, number> = {};
  for (const c of Object.keys(CATEGORY_NAMES)) {
    const qs = scored.filter((s) => s.category === c);
    if (qs.length === 0) continue;
    questionsByCategory[c] = qs.length;
    byCategory[c] = Object.fromEntries(ks.map((k) => [String(k), round3(mean(qs.map((s) => s.recall[k] as number)))]));
  }
  for (const k of ks) overall[String(k)] = round3(mean(scored.map((s) => s.recall[k] as number)));
  return {
    questions: scored.length,
    overall,
    by_category: byCategory,
    questions_by_category: questionsByCategory,
    answered_share: round3(mean(scored.map((s) => (s.answered ? 1 : 0)))),
  };
}
