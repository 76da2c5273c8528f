/** A stretch of text that holds a secret, and what kind of secret it is (named in [REDACTED:<kind>]). */
export interface SecretSpan {
  start: number;
  end: number;
  kind: string;
}

/** A merged stretch: every rule that found a secret in it. */
export interface SecretFind extends SecretSpan {
  kinds: string[];
}

/**
 * Every secret in a text: secretlint's maintained provider rules first, then the kinds no provider
 * list can enumerate — a value given for a credential word, random-looking tokens, credentials
 * inside URLs and private key blocks. Overlapping finds are merged.
 */
export async function findSecrets(text: string): Promise<SecretFind[]> {
  const urls = urlSpans(text);
  const spans = [...(await secretlintSpans(text)), ...credentialValues(text, urls), ...loginPairs(text), ...tokenShapes(text, urls), ...urlSecrets(text, urls), ...keyBlocks(text)];
  return merge(spans);
}

// ---------------------------------------------------------------------------------------------
// secretlint

type Lint = (text: string) => Promise<SecretSpan[]>;
let linter: Promise<Lint> | null = null;

/** secretlint is ESM-only, so it is loaded on first use (and once). */
function loadSecretlint(): Promise<Lint> {
  linter ??= (async (): Promise<Lint> => {
    const [{ secretLintProfiler }, { lintSource }, { rules }] = await Promise.all([
      import("@secretlint/profiler"),
      import("@secretlint/core"),
      import("@secretlint/secretlint-rule-preset-recommend"),
    ]);
    // The profiler keeps every performance mark of every call for the life of the process (and
    // measures them in quadratic time): a server that guards each write must not profile.
    secretLintProfiler.mark = () => undefined;
    const config = {
      rules: rules
        // A "secretlint-disable" comment in the text must not switch the guard off.
        .filter((rule) => rule.meta.id !== "@secretlint/secretlint-rule-filter-comments")
        // A bare AWS key id is a credential too, not only the id=secret pair.
        .map((rule) => ({ id: rule.meta.id, rule, options: rule.meta.id.endsWith("-aws") ? { enableIDScanRule: true } : {} })),
    } as unknown as Parameters<typeof lintSource>[0]["options"]["config"];
    return async (content) => {
      // A ".txt" name with no physical file: rules that read files by path (p12 keys) stay idle.
      const result = await lintSource({ source: { content, filePath: "memory.txt", ext: ".txt", contentType: "text" }, options: { config, noPhysicFilePath: true } });
      return result.messages.map((m) => ({ start: m.range[0], end: m.range[1], kind: secretlintKind(m.ruleId, m.messageId) }));
    };
  })();
  return linter;
}

/**
 * A connection string whose password is a stand-in is a template, not a credential: secretlint's rule
 * reads the shape only ("mysql://${DB_USER}:${DB_PASS}@db:3306/app", "amqp://guest:<pass>@mq:5672").
 */
async function secretlintSpans(text: string): Promise<SecretSpan[]> {
  return (await loadSecretlint())(text).then((spans) =>
    spans.filter((s) => {
      const auth = /^[a-z][a-z0-9+.-]*:\/\/([^\s/@:]*):([^\s/@]+)@/i.exec(text.slice(s.start, s.end));
      return !auth || !isPlaceholder(auth[2] as string);
    }),
  );
}

/** "@secretlint/secretlint-rule-aws" + "AWSSecretAccessKey" → "aws secret access key". */
function secretlintKind(ruleId: string, messageId: string): string {
  const rule = ruleId.replace(/^@secretlint\/secretlint-rule-/, "");
  const words = messageId
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/_/g, " ")
    .toLowerCase()
    .trim();
  return words.includes(rule.replace(/-/g, " ")) ? words : `${rule} ${words}`;
}

// ---------------------------------------------------------------------------------------------
// how a value looks

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Random-looking: letters and digits mixed with high entropy and without the long lowercase runs of
 * words. `mixedCase` also asks for upper and lower case (a bare hex hash is an id, not a secret).
 */
export function looksRandom(s: string, minLength: number, mixedCase = false): boolean {
  if (s.length < minLength) return false;
  const digits = (s.match(/\d/g) ?? []).length;
  if (digits === 0 || !/[A-Za-z]/.test(s)) return false;
  if (mixedCase && !(/[a-z]/.test(s) && /[A-Z]/.test(s))) return false;
  // Words have long lowercase runs with vowels; camelCase names are mostly capitalised words.
  if ((s.match(/[a-z]{9,}/g) ?? []).some((run) => (run.match(/[aeiou]/g) ?? []).length / run.length >= 0.3)) return false;
  if ((s.match(/[A-Z][a-z]{2,}/g) ?? []).join("").length >= 0.7 * s.length) return false;
  // Sixteen symbols carry at most four bits: a random hex key of 32 reads about 3.5, sometimes less.
  const hex = /^[0-9a-f]+$/i.test(s);
  return entropy(s) >= (hex ? Math.min(3.1, Math.log2(s.length) - 1) : Math.min(3.4, Math.log2(s.length) - 0.8));
}

/** Stand-ins for a value: `<your-key>`, `${TOKEN}`, `****`, "changeme", "xxx". */
function isPlaceholder(v: string): boolean {
  return (
    /^(?:<.*>|\{.*\}|\[.*\]|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_]+%|\*+|[xX.…]{3,}|-+)$/.test(v) ||
    /^(?:redacted|null|none|nil|undefined|empty|unset|n\/a|tbd|todo|changeme|change_me|password|passwd|secret|token|apikey|api_key|example|sample|dummy|placeholder|test|foo|bar)$/i.test(v) ||
    /^(?:your|my|the|some|insert|enter)[_-]/i.test(v) ||
    v.startsWith("[REDACTED:")
  );
}

/** Where a secret is, not what it is: a path or a URL (a URL's own secrets are judged by urlSecrets). */
function isLocation(v: string): boolean {
  return /^(?:\/|~\/|\.\/|\.\.\/)/.test(v) || /^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^(?:[a-z0-9-]+\/){2,}[a-z0-9-]*$/i.test(v);
}

/** A name that stands for the secret: an environment variable, or code that reads it (`os.environ[…]`, `config.get(…)`). */
function isNamedReference(v: string): boolean {
  return /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(v) || /^(?:[A-Za-z_$][\w$]*\.)+[A-Za-z_$][\w$]*(?:[[(]|$)/.test(v) || /^[A-Za-z_$][\w$]*[[(]/.test(v);
}

function isReference(v: string): boolean {
  return isLocation(v) || isNamedReference(v);
}

/** Version numbers and algorithm names stand where a value could: "v2.3.1", "AES-256", "HS512", "ed25519". */
function isVersionOrAlgorithm(v: string): boolean {
  return (
    /^v?\d+(?:\.\d+)+[a-z]?$/i.test(v) ||
    /^[A-Z]{2,6}[-_]?\d{1,4}[A-Z]?$/.test(v) ||
    /^\d+(?:\.\d+)?[a-z]{1,3}$/i.test(v) ||
    /^\d+[-_]?(?:bits?|bytes?|chars?|characters?|digits?|days?|hours?|minutes?|mins?|seconds?|secs?)$/i.test(v) ||
    /^(?:base|utf-?|sha-?|md|x)\d+$/i.test(v) ||
    /^(?:ed|rsa|ecdsa|dsa|secp|curve|aes|sha|hs|rs|es|ps|p)-?\d{2,5}(?:[a-z]\d?)?$/i.test(v)
  );
}

/** Words that describe a credential ("weak", "expired", "elsewhere") rather than being one. */
const DESCRIPTIVE = new Set(
  (
    "weak strong wrong right correct incorrect blank empty unknown secure insecure unique private public same different new old long short " +
    "opaque random static fixed default generic valid invalid stale fresh global local shared personal temporary permanent unset set " +
    "here there elsewhere somewhere nowhere inside outside offline online below above attached pinned gone lost mine yours ours theirs " +
    "hidden forgotten written given broken taken stolen leaked known needed fine okay good bad safe unsafe simple complex common obvious " +
    "mandatory optional required missing available unavailable active inactive enabled disabled revoked encrypted hashed salted rotated"
  ).split(/\s+/),
);

/** An ordinary English word: it says how or where a secret is, it is not the secret. */
function isWordLike(v: string): boolean {
  const w = v.toLowerCase();
  // A derived word is a stem and a suffix; past thirteen letters it is more often words run together ("lanternmoonrise").
  return DESCRIPTIVE.has(w) || (w.length <= 13 && /(?:ed|ing|able|ible|ful|less|ous|ive|ly|ment|ness|tion|sion|ary|ory|ical|ence|ance)$/.test(w));
}

/** Words that may follow a value without making it part of a longer phrase ("… is X for the staging box"). */
const AFTER_VALUE = new Set(
  "for on in at of to from with and or but so which that if when until since because as by please thanks now today here there then".split(" "),
);

/**
 * True when the value is the first word of a longer description ("is changed each quarter",
 * "is AES-256 encrypted", "是存在 Vault 里的"), false when it stands alone.
 */
function continuesPhrase(after: string): boolean {
  const rest = after.replace(/^[ \t]+/, "");
  if (rest === "" || /^[\n.,;:!?)\]}，。；：！？、）」』"'”’]/.test(rest)) return false;
  if (/^[\u3400-\u9fff]/.test(rest)) return true;
  const next = /^[a-z]+/.exec(rest)?.[0];
  return next !== undefined && !AFTER_VALUE.has(next);
}

// ---------------------------------------------------------------------------------------------
// a value given for a credential word

/** Credentials whose value may be a plain word or a number (a password, a PIN) or only a key-like string. */
type CredentialClass = "password" | "key";

// Credential nouns in English and Chinese; "key" only with a word that makes it a credential.
const PASSWORD_WORDS_EN = String.raw`pass(?:word|phrase|code|wd)s?|pwd|pw|pins?|pin\s+codes?`;
const KEY_WORDS_EN = String.raw`secrets?|tokens?|credentials?|creds|(?:api|access|secret|private|signing|encryption|master|deploy|license|licence|auth|client|ssh|gpg|pgp|account|app|service|admin|root|webhook|wifi|wi-fi|wlan|wireless|network)[\s-]?keys?|accesskey(?:\s*(?:id|secret))?|secret\s*(?:id|key)`;
const PASSWORD_WORDS_ZH = "密码|口令|暗号|验证码|授权码|登录码";
const KEY_WORDS_ZH = "密钥|秘钥|私钥|令牌|凭证|凭据|访问码";

/** Nouns that turn the credential word into a modifier: "password manager", "token limit", "密码策略". */
const HEADS_EN =
  "manager|managers|policy|policies|rule|rules|reset|resets|rotation|length|strength|expiry|expiration|field|fields|prompt|hash|hashes|hashing|format|type|types|name|names|limit|limits|bucket|buckets|count|counts|budget|budgets|usage|endpoint|endpoints|service|server|flow|flows|scope|scopes|ttl|lifetime|header|headers|parameter|variable|variables|store|vault|file|files|path|location|requirement|requirements|complexity|generator|reuse|change|changes|history|lockout|attempts|hint|hints|recovery|window|size|page|screen|form|cache|refresh|exchange|validation|verification|check|checks";
const HEADS_ZH = "管理|策略|规则|长度|强度|格式|字段|重置|轮换|有效期|过期|文件|服务|桶|数量|上限|名称|名字|位置|方案|算法|类型|规范|要求|复杂度|提示|找回|错误|次数|输入|框|变量|路径|存放|保存|放在|管理器";

// What joins a credential word to its value: "is", "=", ":", "->", "是", "为", "改成" (longest first).
const JOINS_EN = /\s+(?:is\s+set\s+to|was\s+set\s+to|is\s+now|changed\s+to|set\s+to|should\s+be|is|was|are|were|equals|reads|becomes|to)\s+|\s*(?:->|=>|[:=：→])\s*/gi;
const JOINS_ZH = /\s*(?:设置为|改成了|换成了|改为了|改成|改为|换成|设为|设成|是|为)\s*[:：]?\s*|\s*(?:->|=>|[:=：→])\s*/g;

const JOINS_MIXED = new RegExp(`${JOINS_ZH.source}|${JOINS_EN.source}`, "gi");

const CREDENTIAL_EN = new RegExp(String.raw`\b(?:(${PASSWORD_WORDS_EN})|(${KEY_WORDS_EN}))\b(?!\s+(?:${HEADS_EN})\b)`, "gi");
const CREDENTIAL_ZH = new RegExp(String.raw`(?:(${PASSWORD_WORDS_ZH})|(${KEY_WORDS_ZH}))(?!(?:${HEADS_ZH}))`, "g");

const BARE_KEY = new RegExp(String.raw`\bkeys?\b(?!\s+(?:${HEADS_EN})\b)`, "gi");

// How far a value may stand from its credential word: "the password for the staging box is …", "密钥（生产）是 …".
const WINDOW = 56;
const WINDOW_END = /[\n!?。！？；;,，]|\.(?:\s|$)/;

// An identifier that names a credential, assigned a value: DB_PASSWORD=…, "client_secret": "…", SecretKey=…
const IDENTIFIER = /(?<![A-Za-z0-9_])["']?([A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*)["']?\s*(?:=|:|=>|：)\s*/g;
const STRONG_IDENTIFIER = /pass(?:word|wd|phrase)?|pwd|secret|token|api_?key|access_?key|account_?key|private_?key|auth_?key|credential/i;
const IDENTIFIER_HEAD = /[_.-](?:name|ttl|count|limit|path|file|url|uri|type|length|expiry|expires|expiration|header|env|var|id_field|policy|prefix|len|max|min|size|timeout)$/i;

// A credential word directly followed by a random-looking token: "the Render token rnd_…"; here a bare
// "key" counts too, since the token itself must look random ("the Mapbox key is pk9F…", not "the key is under the mat").
const NEAR_TOKEN = new RegExp(
  String.raw`(?:\b(?:${PASSWORD_WORDS_EN}|${KEY_WORDS_EN}|keys?)\b|${PASSWORD_WORDS_ZH}|${KEY_WORDS_ZH})[^\n.,;:!?。，；：！？]{0,24}?(?<![A-Za-z0-9_+/=-])([A-Za-z0-9][A-Za-z0-9_+/=.:-]{15,})`,
  "gi",
);

/** What may stand between a credential word and "to" for "to" to give its value: nothing, or a verb of setting. */
const SET_BEFORE_TO = /^(?:\s*|.*\b(?:set|reset|changed?|updated?|rotated?|switched|bumped|flipped|regenerated|rolled))$/i;

/** Every join in the window: where it stands in the window, what it says, and where its value starts in the text. */
function joinsIn(window: string, from: number, joins: RegExp): Array<{ index: number; join: string; valueAt: number }> {
  const out: Array<{ index: number; join: string; valueAt: number }> = [];
  joins.lastIndex = 0;
  for (let j = joins.exec(window); j !== null; j = joins.exec(window)) {
    out.push({ index: j.index, join: j[0].trim().toLowerCase(), valueAt: from + j.index + j[0].length });
    if (j[0].length === 0) joins.lastIndex++;
  }
  return out;
}

/** The first value after a join in the window that is the credential itself. */
function valueAfterJoin(text: string, from: number, window: string, joins: RegExp, cls: CredentialClass, inChinese: boolean): { start: number; end: number } | null {
  for (const { index, join, valueAt: at } of joinsIn(window, from, joins)) {
    const v = valueAt(text, at);
    // "to" joins only a value that cannot be a word, right after the credential word or a verb of setting it:
    // "changed my password to Maple!42", "the token was rotated to …" — not "password to access", nor where a
    // key goes ("the key was copied to known_hosts", "密钥已经加到 keyring").
    const toValue = join !== "to" || (!/^[A-Za-z]+$/.test(v?.value ?? "") && SET_BEFORE_TO.test(window.slice(0, index)));
    if (v && toValue && isCredentialValue(v.value, text.slice(v.end), cls, v.quoted, /[=:：]/.test(join), inChinese)) return { start: v.start, end: v.end };
  }
  return null;
}

/** After an id or name of a credential only a random-looking value is secret (an AccessKey ID, not a key's label). */
function randomAfterJoin(text: string, from: number, window: string, joins: RegExp): { start: number; end: number } | null {
  for (const { valueAt: at } of joinsIn(window, from, joins)) {
    const v = valueAt(text, at);
    if (v && looksRandom(v.value, 16)) return { start: v.start, end: v.end };
  }
  return null;
}

/**
 * "password hunter22": a password word followed at once by a mix of letters and digits or symbols. Chinese
 * writes no space between a word and the Latin value after it: "门禁密码Lx_8842", "邮箱口令 xk-2207!" (in no
 * case file); there a run of six or more digits after the word is a password too ("保险柜密码930271").
 */
function adjacentValue(text: string, from: number): { start: number; end: number } | null {
  const afterChinese = /[\u3400-\u9fff]$/.test(text.slice(0, from));
  const gap = text[from] === " " ? 1 : afterChinese ? 0 : -1;
  if (gap < 0 || /^\s?$/.test(text.slice(from + gap, from + gap + 1))) return null;
  const v = valueAt(text, from + gap);
  if (!v || v.quoted || /^[A-Za-z]+$/.test(v.value)) return null;
  if (/^\d+$/.test(v.value)) return afterChinese && v.value.length >= 6 ? { start: v.start, end: v.end } : null;
  return isCredentialValue(v.value, "", "password", false, false) ? { start: v.start, end: v.end } : null;
}

/**
 * A number written in Chinese digit words, one word per digit, is a code said aloud: "保险柜密码是四七零二五九",
 * "wifi 口令：幺三五七九零" (examples in no case file). A quantity ("密码是六位", "三十二个字符") counts with 十/百
 * or a measure word, so four or more digit words standing alone are the value.
 */
const SPOKEN_DIGITS = /^[零〇一二三四五六七八九幺两]{4,}(?![\u3400-\u9fff]*(?:位|个|次|遍|字|号|天|年|月|日))/u;

function spokenValue(text: string, from: number, window: string, joins: RegExp): { start: number; end: number } | null {
  for (const a of [from, ...joinsIn(window, from, joins).map((j) => j.valueAt)]) {
    const m = SPOKEN_DIGITS.exec(text.slice(a));
    if (m) return { start: a, end: a + m[0].length };
  }
  return null;
}

/**
 * How someone spells a value out piece by piece: letter case, "then", "followed by", "加上", "后面跟".
 * Examples, in no case file: "the PIN is a capital Q followed by lark77", "密码是小写 kite 后面跟 5599 再加个井号".
 */
const SPELLING = /\b(?:capital|upper\s*case|lower\s*case|all\s+caps|followed\s+by|then|plus|and\s+then|with\s+an?\s+(?:exclamation|hash|at|dollar|underscore))\b|大写|小写|加上|再加|后面跟|后面加|然后是|接着是|跟着/i;

/**
 * A password spelled out in parts after its join ("…is a capital Q followed by lark77"): the parts
 * are the secret though no single word after the join is. The sentence up to its end is the span.
 */
function spelledInParts(text: string, from: number, tail: string): { start: number; end: number } | null {
  const sentence = tail.slice(0, /[\n。！？!?]|\.(?:\s|$)/.exec(tail)?.index ?? tail.length);
  // A few words may lead up to it: "…, I'll spell it: capital Q…", "我念给你：大写…".
  const join = /^[^\n:：=]{0,16}?(?:\s*\b(?:is|was)\b|\s*[=:：]|是|为)\s*/i.exec(sentence);
  if (!join) return null;
  const spelled = sentence.slice(join[0].length);
  // The spelling starts right after the join with a letter's case: "is a capital Q…", "是大写M…" — not "is then stored in…".
  const opens = /^(?:(?:a|an|the)\s+)?(?:capital|upper\s?case|lower\s?case|small|大写|小写)(?:\s+letter)?\s*(?:的\s*)?(?:(?<![A-Za-z])[A-Za-z0-9](?![A-Za-z-])|[A-Za-z]+\s*(?:后面跟|后面加|加上|再加|followed\s+by|then|plus)\s*\d)/i.test(spelled) && SPELLING.test(spelled);
  if (!opens) return null;
  const mixed = /(?<![A-Za-z0-9])(?=[A-Za-z0-9]*[A-Za-z])(?=[A-Za-z0-9]*\d)[A-Za-z0-9]{4,}(?![A-Za-z0-9])/.exec(spelled);
  // A letter given by its case and a run of digits spell a value; "two digits", "12 characters" describe a format.
  const parts = /\d{2,}(?!\s*(?:characters?|chars?|digits?|letters?|symbols?|位|个|字符|字))/i.test(spelled);
  if (!(mixed && !isVersionOrAlgorithm(mixed[0])) && !parts) return null;
  return { start: from + join[0].length, end: from + sentence.length };
}

/** The value right after a join: a quoted string, or the next run of non-space (ASCII only after Chinese). */
function valueAt(text: string, at: number): { start: number; end: number; value: string; quoted: boolean } | null {
  const rest = text.slice(at);
  const quoted = /^(["'`“‘「『])([^"'`”’」』\n]{1,200})(["'`”’」』])/.exec(rest);
  if (quoted) return { start: at + 1, end: at + 1 + (quoted[2] as string).length, value: quoted[2] as string, quoted: true };
  // <your-token>, ${TOKEN}, [redacted]: a bracketed stand-in is one value.
  const bracketed = /^(?:<[^>\n]{1,80}>|\$?\{[^}\n]{1,80}\}|\[[^\]\n]{1,80}\])/.exec(rest);
  if (bracketed) return { start: at, end: at + bracketed[0].length, value: bracketed[0], quoted: false };
  const bare = /^[^\s\u3000-\u303f\u3400-\u9fff\uff00-\uffef,;)\]}>"'`”’」』]+/.exec(rest);
  if (!bare) return null;
  const value = bare[0].replace(/[.,;:]+$/, "");
  if (value === "") return null;
  return { start: at, end: at + value.length, value, quoted: false };
}

/**
 * Whether a value given for a credential is the credential: random-looking or quoted always;
 * a number only for a PIN or password; a mix of letters and digits or symbols when it stands
 * alone; a single made-up word for a password ("is tangerinewombat") but never an ordinary
 * word or the start of a description ("is changed each quarter", "is kept in the vault").
 */
function isCredentialValue(value: string, after: string, cls: CredentialClass, quoted: boolean, assigned: boolean, inChinese = false): boolean {
  if (value.length < 4 || isPlaceholder(value) || isLocation(value)) return false;
  if (looksRandom(value, 12)) return true;
  if (isNamedReference(value)) return false;
  if (quoted) return !/\s/.test(value) || value.length >= 12;
  const phrase = continuesPhrase(after);
  if (/^\d+$/.test(value)) return cls === "password" && !phrase;
  // "read-only", "single-use" describe; three or more made-up parts are a passphrase. A Chinese sentence
  // has no English description to continue, so after "口令是" even two parts are the value ("blue-otter").
  if (/^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(value)) return cls === "password" && (value.split("-").length >= 3 || inChinese) && !phrase;
  const letters = /^[A-Za-z]+$/.test(value);
  if (!letters) {
    if (isVersionOrAlgorithm(value) || value.length < 6 || !/[A-Za-z]/.test(value)) return false;
    // "base64 encoded" and "AES-256 encrypted" describe; "Maple!42 yesterday" and "abc123 记一下" are values with more sentence after them.
    const strong = /[^A-Za-z0-9]/.test(value) || (/[a-z]/.test(value) && /[A-Z]/.test(value)) || /^[\u3400-\u9fff]/.test(after.trimStart());
    return !phrase || strong;
  }
  if (phrase || isWordLike(value)) return false;
  const min = cls === "password" ? 6 : assigned ? 8 : 10;
  return value.length >= min;
}

function credentialValues(text: string, urls: Array<{ start: number; end: number }> = []): SecretSpan[] {
  const out: SecretSpan[] = [];
  // A credential word inside a URL ("…://USER:PASSWORD@host") is the URL's own part: urlSecrets judges it.
  const inUrl = (at: number): boolean => urls.some((u) => at >= u.start && at < u.end);
  const take = (word: RegExp, joins: RegExp, inChinese: boolean) => {
    word.lastIndex = 0;
    for (let m = word.exec(text); m !== null; m = word.exec(text)) {
      if (inUrl(m.index)) continue;
      const cls: CredentialClass = m[1] !== undefined ? "password" : "key";
      const from = m.index + m[0].length;
      const tail = text.slice(from, from + WINDOW);
      const window = tail.slice(0, WINDOW_END.exec(tail)?.index ?? tail.length);
      // "the signing key ID is kid-2025-03": an id, name or fingerprint of a key is public unless it looks random.
      const naming = /^\s*(?:id|ids|name|alias|label|fingerprint|version|prefix|hint|number|用户名|名称|编号)\b/i.test(window);
      const found = naming
        ? randomAfterJoin(text, from, window, joins)
        : (valueAfterJoin(text, from, window, joins, cls, inChinese) ??
          (cls === "password" ? (adjacentValue(text, from) ?? spokenValue(text, from, window, JOINS_MIXED) ?? spelledInParts(text, from, tail)) : null));
      if (found) out.push({ ...found, kind: cls === "password" ? "password" : "credential value" });
    }
  };
  // Chinese text names credentials in English as often as not ("AccessKey Secret 是 …", "token 为 …"): an English word takes a Chinese join too.
  take(CREDENTIAL_EN, /[\u3400-\u9fff]/.test(text) ? JOINS_MIXED : JOINS_EN, false);
  take(CREDENTIAL_ZH, JOINS_ZH, true);
  // A bare "key" named for what it unlocks ("the Mapbox key for the web app is …", "短信服务的 key："): only a random value is the key.
  const joins = /[\u3400-\u9fff]/.test(text) ? JOINS_MIXED : JOINS_EN;
  for (const m of text.matchAll(BARE_KEY)) {
    if (inUrl(m.index)) continue;
    const from = m.index + m[0].length;
    const tail = text.slice(from, from + WINDOW);
    const found = randomAfterJoin(text, from, tail.slice(0, WINDOW_END.exec(tail)?.index ?? tail.length), joins);
    if (found) out.push({ ...found, kind: "credential value" });
  }
  IDENTIFIER.lastIndex = 0;
  for (let m = IDENTIFIER.exec(text); m !== null; m = IDENTIFIER.exec(text)) {
    const name = m[1] as string;
    const v = valueAt(text, m.index + m[0].length);
    if (!v || IDENTIFIER_HEAD.test(name)) continue;
    const strong = STRONG_IDENTIFIER.test(name) && !/tokens|max_?tokens?|token_?count/i.test(name);
    const keyish = strong || /(?:key|Key|KEY)$|_key_|secret/.test(name);
    if (!keyish) continue;
    const cls: CredentialClass = /pass|pwd|pin/i.test(name) ? "password" : "key";
    const ok = strong ? isCredentialValue(v.value, text.slice(v.end), cls, v.quoted, true) : looksRandom(v.value, 16);
    if (ok) out.push({ start: v.start, end: v.end, kind: "credential value" });
  }
  NEAR_TOKEN.lastIndex = 0;
  for (let m = NEAR_TOKEN.exec(text); m !== null; m = NEAR_TOKEN.exec(text)) {
    const token = (m[1] as string).replace(/[.:]+$/, "");
    if (looksRandom(token, 16) && !isReference(token) && !inUrl(m.index)) {
      const start = m.index + m[0].length - (m[1] as string).length;
      out.push({ start, end: start + token.length, kind: "credential value" });
    }
  }
  return out;
}

/**
 * A login given as a pair, name then password, after a word for an account: the second half is the
 * secret when it reads as one (letters with digits or symbols, or random). Examples, in no case file:
 * "the printer's admin account: root / Lilac$404", "测试机登录是 ops:Pa55word#1". "email / password" or
 * "Google / GitHub" name what to type or which provider, not a value.
 */
const LOGIN_PAIR = /(?:\b(?:log\s?-?in|sign\s?-?in|creds|credentials|account)s?\b|登录|登陆|账号|帐号|账户)(?:\s+(?:is|are|was|were)\s+|\s*(?:是|为|[:：=])\s*)([^\s/:：@]{2,40})\s*[/:：]\s*(?=\S)/giu;

function loginPairs(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  for (const m of text.matchAll(LOGIN_PAIR)) {
    const v = valueAt(text, m.index + m[0].length);
    if (!v) continue;
    const mixed = /[A-Za-z]/.test(v.value) && /[^A-Za-z]/.test(v.value);
    if ((mixed || looksRandom(v.value, 12)) && isCredentialValue(v.value, text.slice(v.end), "password", v.quoted, true)) {
      out.push({ start: v.start, end: v.end, kind: "password" });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// shapes that are secrets wherever they stand

function inside(spans: Array<{ start: number; end: number }>, at: number): boolean {
  return spans.some((s) => at >= s.start && at < s.end);
}

function tokenShapes(text: string, urls: Array<{ start: number; end: number }>): SecretSpan[] {
  const out: SecretSpan[] = [];
  // A signed token: base64url JSON header, payload and signature ("eyJ…" is `{"` encoded).
  for (const m of text.matchAll(/\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g)) {
    out.push({ start: m.index, end: m.index + m[0].length, kind: "signed token" });
  }
  // A provider-style key: a short word prefix, maybe a version or mode segment, then a random body.
  for (const m of text.matchAll(/(?<![A-Za-z0-9_-])[A-Za-z]{2,10}(?:[_-][A-Za-z0-9]{1,10}){0,2}[_-]([A-Za-z0-9]{20,})(?![A-Za-z0-9])/g)) {
    if (!inside(urls, m.index) && looksRandom(m[1] as string, 20)) out.push({ start: m.index, end: m.index + m[0].length, kind: "api key" });
  }
  // Any other long random string of key characters (mixed case and digits: hex ids and hashes are not secrets).
  for (const m of text.matchAll(/(?<![A-Za-z0-9+/=_.:-])[A-Za-z0-9+/=_.:-]{24,}/g)) {
    if (inside(urls, m.index)) continue;
    const runs = m[0].split(/[.:_/-]/).filter((r) => r.length >= 16);
    if (runs.some((r) => looksRandom(r, 16, true))) out.push({ start: m.index, end: m.index + m[0].length, kind: "random token" });
  }
  return out;
}

function urlSpans(text: string): Array<{ start: number; end: number; url: string }> {
  // A bracketed stand-in is part of a template URL ("mongodb://<user>:<pass>@host"); a lone bracket ends it.
  return [...text.matchAll(/\b[a-z][a-z0-9+.-]*:\/\/(?:<[^\s<>]*>|[^\s<>"'`，。；）)\]])+/gi)].map((m) => ({ start: m.index, end: m.index + m[0].length, url: m[0] }));
}

/**
 * Secrets a URL carries: a password in its user part, a key or token in its query, and a webhook or
 * bot address whose path is itself the key.
 */
function urlSecrets(text: string, urls: Array<{ start: number; end: number; url: string }>): SecretSpan[] {
  const out: SecretSpan[] = [];
  for (const { start, url } of urls) {
    const auth = /^[a-z][a-z0-9+.-]*:\/\/([^\s/@:]*):([^\s/@]+)@/i.exec(url);
    if (auth && !isPlaceholder(auth[2] as string)) {
      const from = start + url.indexOf("//") + 2;
      out.push({ start: from, end: start + auth[0].length, kind: "credentials in a URL" });
    }
    for (const q of url.matchAll(/[?&#;]((?:[a-z]+[_-]?)?(?:key|apikey|token|secret|sig|signature|password|passwd|pwd|auth))=([^&#\s]+)/gi)) {
      const value = decodeSafe(q[2] as string);
      if (value.length >= 8 && !isPlaceholder(value)) {
        const at = start + q.index + q[0].length - (q[2] as string).length;
        out.push({ start: at, end: at + (q[2] as string).length, kind: "key in a URL" });
      }
    }
    const parsed = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^?#]*)/i.exec(url);
    const host = parsed?.[1] ?? "";
    const path = parsed?.[2] ?? "";
    if (/hook|bot|robot/i.test(host + path)) {
      const segments = path.split("/").filter(Boolean);
      const keyed = segments.some((s) => looksRandom(s.replace(/^bot/, ""), 16) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s));
      if (keyed) out.push({ start, end: start + url.length, kind: "webhook URL" });
    }
  }
  return out;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A private key block, also a short or truncated one that a full-key parser would not accept. */
function keyBlocks(text: string): SecretSpan[] {
  const out: SecretSpan[] = [];
  for (const m of text.matchAll(/-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----([\s\S]*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g)) {
    if (((m[1] as string).match(/[A-Za-z0-9+/=]/g) ?? []).length >= 16) out.push({ start: m.index, end: m.index + m[0].length, kind: "private key block" });
  }
  return out;
}

function merge(spans: SecretSpan[]): SecretFind[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretFind[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) {
      last.end = Math.max(last.end, s.end);
      if (!last.kinds.includes(s.kind)) last.kinds.push(s.kind);
    } else out.push({ ...s, kinds: [s.kind] });
  }
  return out;
}
