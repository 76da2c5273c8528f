import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A short, stable name for a token that reveals nothing of it: the first 12 hex digits of its SHA-256. */
export function tokenId(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex").slice(0, 12);
}

/** The audit actor for requests made with a token. */
export function tokenActor(token: string): string {
  return `token:${tokenId(token)}`;
}

/** A new random bearer token (256 bits, base64url). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export const MIN_TOKEN_LENGTH = 16;

/**
 * Bearer-token authentication. Tokens are kept only as SHA-256 digests and compared in constant
 * time against every known token, so neither the answer time nor an early exit tells how close a guess was.
 */
export class BearerAuth {
  private readonly entries: Array<{ digest: Buffer; id: string }>;

  constructor(tokens: string[]) {
    if (tokens.length === 0) throw new Error("at least one token is required");
    for (const t of tokens) if (t.length < MIN_TOKEN_LENGTH) throw new Error(`a token must have at least ${MIN_TOKEN_LENGTH} characters`);
    this.entries = tokens.map((t) => ({ digest: createHash("sha256").update(t, "utf8").digest(), id: tokenId(t) }));
  }

  /** The token id for an Authorization header carrying a known bearer token, else null. */
  authenticate(header: string | string[] | undefined): string | null {
    if (typeof header !== "string") return null;
    const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
    if (!m || !m[1]) return null;
    const digest = createHash("sha256").update(m[1], "utf8").digest();
    let found: string | null = null;
    for (const e of this.entries) {
      if (timingSafeEqual(digest, e.digest) && found === null) found = e.id;
    }
    return found;
  }
}
