import { z } from "zod";
import { parseInput } from "./validate.js";

const weight = (d: number) => z.number().min(0).max(1).default(d);
const lambda = (d: number) => z.number().min(0).max(10).default(d);

/** Every field has its own default, so a partial override ({weights: {timeDecay: 0}}) keeps the rest. */
export const EngineConfigSchema = z.object({
  /** final = relevance·w.relevance + confidence·w.confidence + time_decay·w.timeDecay + access_boost·w.access */
  weights: z.object({ relevance: weight(0.65), confidence: weight(0.2), timeDecay: weight(0.1), access: weight(0.05) }).prefault({}),
  /** time_decay = exp(-λ·days since the memory was last stated); long-lived kinds decay slowly. */
  decayPerDay: z
    .object({ preference: lambda(0.005), fact: lambda(0.01), constraint: lambda(0.005), task_state: lambda(0.1), event: lambda(0.005) })
    .prefault({}),
  /** access_boost = 1 - exp(-access_count / accessScale) */
  accessScale: z.number().positive().default(5),
  recall: z
    .object({
      defaultK: z.number().int().min(1).max(50).default(5),
      vectorCandidates: z.number().int().min(1).max(200).default(20),
      textCandidates: z.number().int().min(1).max(200).default(20),
      /** Candidates whose evidence of relevance is below this are dropped: an unrelated query recalls nothing. */
      relevanceFloor: weight(0.3),
      /** Cosine similarity mapped to [0,1] evidence: (cos - low) / (high - low). Unset: the embedding model's profile decides. */
      cosineLow: z.number().min(-1).max(1).optional(),
      cosineHigh: z.number().min(-1).max(1).optional(),
      /** Blend of the fused relevance: vector evidence, full-text rank evidence, query-term coverage. */
      fusion: z.object({ vector: weight(0.45), fullText: weight(0.35), coverage: weight(0.2) }).prefault({}),
      fallbackToL0: z.boolean().default(true),
      /**
       * Stage-1 retrievers (ablations and baselines switch one off): the query's vector, its words
       * (full text), the time it names (recall/temporal.ts) and the named things it mentions (recall/entities.ts).
       */
      candidateSources: z.array(z.enum(["vector", "fullText", "temporal", "entity"])).min(1).default(["vector", "fullText", "temporal", "entity"]),
      /** Memories the temporal and entity retrievers each add to the candidates. */
      temporalCandidates: z.number().int().min(1).max(200).default(20),
      entityCandidates: z.number().int().min(1).max(200).default(20),
      /** Added to the relevance of a candidate by how close the time it tells of is to the time the query names (0-1 closeness). */
      temporalWeight: weight(0.6),
      /** Added to the relevance of a candidate by the share of the query's named things it shares, weighted by their rarity. */
      entityWeight: weight(0),
      /** A memory whose source turns are all covered by better-ranked results is moved behind the others: k results, k different things. */
      diversify: z.boolean().default(true),
      /**
       * Use (access boost) only reorders memories of about the same relevance: it never lifts a memory
       * over one whose relevance is more than this much higher, so a popular but unrelated memory
       * cannot outrank the one the query is about. In relevance units (0-1); 0: use never overrides relevance.
       */
      accessMargin: weight(0.05),
      /** Cross-encoder (when one is configured): how many of the best fused candidates it rescores, and its time budget. */
      rerankCandidates: z.number().int().min(1).max(100).default(30),
      rerankBudgetMs: z.number().int().min(1).max(60_000).default(300),
      /** A second embedding model's share of the relevance of the candidates it can read (0: it is not asked). */
      secondOpinionWeight: weight(0.2),
      /**
       * Share of the vector evidence read from the query without the words its best candidates all
       * share (recall/focus.ts): among memories about one thing, the attribute asked for decides. 0: off.
       */
      focusWeight: weight(0.5),
      /**
       * Added to the relevance of candidates that hold the kind of value the question asks for (an
       * amount for "how many", a time for "when"), when others do not (recall/answerKind.ts). 0: off.
       */
      answerKindBonus: weight(0.05),
      /** A query that finds a replaced memory is led to the active memory that replaced it (recall/lineage.ts). */
      followReplacements: z.boolean().default(true),
      /**
       * A question that asks two things at once ("… for X and for Y", "… and who …", "A 和 B 分别…") is also
       * asked part by part, each part's best answer leading (recall/questionParts.ts).
       */
      splitQuestions: z.boolean().default(true),
      /** With a session id, up to this many of the session's working-memory (L1) items come first. */
      workingMemoryItems: z.number().int().min(0).max(20).default(3),
    })
    .prefault({}),
  write: z
    .object({
      /** Same scope and type with at least this similarity and no changed value: a restatement. Unset: the model's profile decides. */
      dedupSimilarity: z.number().min(0).max(1).optional(),
      /** Below this similarity two statements are about different things and cannot contradict. Unset: the model's profile decides. */
      topicSimilarity: z.number().min(0).max(1).optional(),
      /** Same, for CJK text (lexical Dice over words). */
      topicSimilarityCjk: weight(0.4),
      /**
       * When the model cannot read a statement (CJK with an English model), word overlap (Dice) stands
       * in for its similarity. A restatement at this overlap or more (or at the model's own floor, if
       * lower): words overlap less than meanings do, so it sits below the cosine floors, yet four words
       * in five is still the same sentence.
       */
      dedupSimilarityLexical: weight(0.8),
      /** Dice at which such a statement with a changed value restates the same thing: below the duplicate floor, since the new value changes some of the words. */
      restatementSimilarityLexical: weight(0.75),
      /**
       * Shared words (Dice) that count as the same topic for a statement with an update cue ("now",
       * "switched to"), whatever the model reads: the cue already says something is replaced, so half
       * the words in common is enough to say what.
       */
      lexicalTopicWithCue: weight(0.5),
      /** A correction ("no wait, …", "不对，…") refers to what was said moments before, not to last month's memories. */
      correctionWindowMs: z.number().int().min(0).default(15 * 60_000),
      /**
       * How close (Dice) a correction the model cannot read must be to the memory it corrects: low,
       * since a correction often names only the new value and the window already keeps it to what was just said.
       */
      correctionSimilarityLexical: weight(0.2),
      /**
       * Two counts against the same total ("4 of 9 services", "7 of 9 services") are one task's
       * progress when the words around them overlap this much (Dice): the equal total is most of the evidence.
       */
      taskFrameSimilarity: weight(0.4),
      /** Contradictions closer in time than this with equal confidence are undecidable: both stay, flagged. */
      tieWindowMs: z.number().int().min(0).default(60_000),
      defaultConfidence: weight(0.8),
      /** Extracted memories below this confidence go to L2 (episodic) only. */
      l3MinConfidence: weight(0.6),
      /** Longest extracted memory, in characters (a CJK character counts three). */
      maxMemoryChars: z.number().int().min(40).max(4000).default(240),
      /** How long the LLM extractor may take for one turn before ingest falls back to the rule extractor. */
      llmTimeoutMs: z.number().int().min(100).max(600_000).default(8000),
      /**
       * "rules": the offline extractor decides what is worth remembering and splits long turns;
       * "verbatim": every ingested turn becomes one memory as said (the naive baseline).
       */
      extraction: z.enum(["rules", "verbatim"]).default("rules"),
      /** Index an answer with the question asked just before it in the same session. */
      sessionContext: z.boolean().default(true),
      /** Only a question this recent is an answer's context: after half an hour of silence the next message starts another exchange. */
      sessionContextWindowMs: z.number().int().min(0).default(30 * 60_000),
      /**
       * The closest memories by vector a new statement is compared with (every type): a topic's slot
       * and its restatements are among the first few, and each one compared costs a relate() per write.
       */
      neighbourVectorHits: z.number().int().min(1).max(200).default(12),
      /** Full-text hits added per text (CJK the model cannot read, an old value the statement names): they only add what the vector search missed, so fewer. */
      neighbourTextHits: z.number().int().min(0).max(200).default(8),
      /** How many of the closest memories the LLM sees: enough for the slot in question, few enough for one short call. */
      llmNeighbours: z.number().int().min(1).max(50).default(4),
      /** Memories guarded, embedded and stored per step of a bulk import: enough for batched embedding to pay off, few enough that a step's vectors stay small in memory. */
      importBatch: z.number().int().min(1).max(10_000).default(256),
      /**
       * Task state is working memory (DESIGN: L1, short-lived): without an explicit valid_until it expires
       * after this many hours. A week: the state of a task nobody touched over a long weekend is still the
       * answer on Tuesday (three days lost it), and a task left for a month is no longer current.
       */
      taskStateTtlHours: z.number().positive().max(24 * 365).default(24 * 7),
      /** The rule extractor's thresholds (write/extract.ts). Lengths are weighted: a CJK character counts three. */
      /** Read an extracted statement with no value in it by the embedding model against labelled chatter (write/chatter.ts). */
      chatterByModel: z.boolean().default(true),
      rules: z
        .object({
          /** A hedged statement ("maybe", "I think"): below l3MinConfidence, so it stays episodic until it is said firmly. */
          hedgedConfidence: weight(0.4),
          /** A statement about someone else is second-hand: below l3MinConfidence too, and above a hedge. */
          thirdPartyConfidence: weight(0.5),
          /**
           * Share of CJK characters from which a statement is rewritten as Chinese: Chinese sentences
           * often carry English names and numbers, so a minority of CJK characters already makes one Chinese.
           */
          chineseRatio: weight(0.3),
          /** A wish ("good luck", "中秋快乐") in a sentence this short is a courtesy; a longer sentence around one may still carry a fact. */
          shortWishChars: z.number().int().min(0).max(4000).default(48),
          /** After a pause word ("hold on, …") only this much text or more is read as a correction; less is the pause itself. */
          correctionMinChars: z.number().int().min(0).max(4000).default(20),
          /** A remark after a bare interjection ("Meh. Rain again.") with at most this many words and characters is what the interjection is about (a mood); a longer one is judged on its own. */
          shortRemarkWords: z.number().int().min(0).max(100).default(5),
          shortRemarkChars: z.number().int().min(0).max(4000).default(40),
          /** Fewer letters and digits than this (each counts one) is no statement ("ok", "嗯嗯"), alone or after a retraction. */
          minStatementChars: z.number().int().min(1).max(100).default(4),
        })
        .prefault({}),
    })
    .prefault({}),
  /** A compression is proposed when one scope+subject+type holds more than `moreThanItems` memories spread over more than `moreThanDays`. */
  compression: z
    .object({ moreThanItems: z.number().int().min(1).default(10), moreThanDays: z.number().min(0).default(7) })
    .prefault({}),
  defaultScope: z.string().default("project:default"),
  /** Who is acting, recorded in the audit log. */
  actor: z.string().default("engine"),
});

export type EngineConfig = z.output<typeof EngineConfigSchema>;
export type EngineConfigInput = z.input<typeof EngineConfigSchema>;

export function resolveConfig(input: unknown = {}): EngineConfig {
  return parseInput(EngineConfigSchema, input, "config", "as-is");
}
