import type { TurnRecord } from "./memory.js";

/**
 * What someone said, with who said it in front ("Ana: the staging build is green"): the one
 * spelling of a spoken line, so the L0 index, re-embedding and the verbatim baseline find a speaker's
 * name in the same place.
 */
export function spokenBy(speaker: string | null | undefined, text: string): string {
  return speaker ? `${speaker}: ${text}` : text;
}

/** Text of a turn as the L0 index sees it (speaker included so names are searchable). */
export function turnText(turn: Pick<TurnRecord, "speaker" | "user">): string {
  return spokenBy(turn.speaker, turn.user);
}
