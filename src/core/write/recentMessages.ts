/** A message as the write path heard it (guarded: secrets redacted), and when. */
export interface Heard {
  text: string;
  at: number;
}

/** Sessions remembered at most: a long-running team server hears many; the oldest-used go first. */
const DEFAULT_MAX_SESSIONS = 1000;

/**
 * The last message heard per scope and session, so an answer can be read with the question before
 * it ("the blue one" after "which colour for the login button?"). Turns of one session may be
 * prepared side by side (extraction runs outside the scope's queue), so each turn claims its place
 * when it arrives and reads what the turn before it was heard as, whenever that is known.
 */
export class RecentMessages {
  private readonly sessions = new Map<string, Promise<Heard | null>>();

  constructor(private readonly maxSessions = DEFAULT_MAX_SESSIONS) {}

  /**
   * Claims the next place in a session (in call order): `before` is what the previous turn was
   * heard as; `heard` reports this turn (null: it was not heard, the previous one stays the last).
   */
  claim(key: string): { before: Promise<Heard | null>; heard: (h: Heard | null) => void } {
    const before = this.sessions.get(key) ?? Promise.resolve(null);
    let settle: (h: Heard | null | Promise<Heard | null>) => void = () => undefined;
    const mine = new Promise<Heard | null>((resolve) => {
      settle = resolve;
    });
    this.sessions.delete(key);
    this.sessions.set(key, mine);
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= this.maxSessions) break;
      this.sessions.delete(oldest);
    }
    return { before, heard: (h) => settle(h ?? before) };
  }

  size(): number {
    return this.sessions.size;
  }
}
