import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { fullGrant, type Grant } from "./access/grant.js";

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

/** SHA-256 of a token: what a token file keeps instead of the token (a 256-bit random token needs no slow hash). */
export function tokenDigest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

export const MIN_TOKEN_LENGTH = 16;

/** Who is calling: the grant of the bearer token in an Authorization header, or null for none or an unknown one. */
export interface Authenticator {
  identify(header: string | string[] | undefined): Grant | null | Promise<Grant | null>;
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | string[] | undefined): string | null {
  if (typeof header !== "string") return null;
  const m = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return m && m[1] ? m[1] : null;
}

/**
 * Bearer-token authentication. Tokens are kept only as SHA-256 digests and compared in constant
 * time against every known token, so neither the answer time nor an early exit tells how close a guess was.
 * Plain tokens (the constructor) may do everything; `fromDigests` takes scoped grants (a token file).
 */
export class BearerAuth implements Authenticator {
  private readonly entries: Array<{ digest: Buffer; grant: Grant }>;

  constructor(tokens: string[]) {
    if (tokens.length === 0) throw new Error("at least one token is required");
    for (const t of tokens) if (t.length < MIN_TOKEN_LENGTH) throw new Error(`a token must have at least ${MIN_TOKEN_LENGTH} characters`);
    this.entries = tokens.map((t) => ({ digest: tokenDigest(t), grant: fullGrant(tokenId(t)) }));
  }

  /** Tokens known by their SHA-256 digest only, each with its grant (may be empty: every request is then 401). */
  static fromDigests(entries: Array<{ digest: Buffer; grant: Grant }>): BearerAuth {
    const auth = Object.create(BearerAuth.prototype) as BearerAuth;
    for (const e of entries) if (e.digest.length !== 32) throw new Error(`token ${e.grant.id}: a SHA-256 digest has 32 bytes`);
    Object.assign(auth, { entries: entries.map((e) => ({ digest: Buffer.from(e.digest), grant: e.grant })) });
    return auth;
  }

  /** The token id for an Authorization header carrying a known bearer token, else null. */
  authenticate(header: string | string[] | undefined): string | null {
    return this.identify(header)?.id ?? null;
  }

  identify(header: string | string[] | undefined): Grant | null {
    const token = bearerToken(header);
    if (token === null) return null;
    const digest = tokenDigest(token);
    let found: Grant | null = null;
    for (const e of this.entries) {
      if (timingSafeEqual(digest, e.digest) && found === null) found = e.grant;
    }
    return found;
  }
}
