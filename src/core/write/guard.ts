/** What the guard decided about a piece of text, with the reason shown to the user. */
export interface GuardVerdict {
  /** "secret": refused, never stored; "injection": stored as quarantined, never recalled. */
  kind: "ok" | "secret" | "injection";
  reason: string;
  /** The text with every secret replaced by a [REDACTED:<kind>] marker. */
  redacted: string;
}

interface Rule {
  name: string;
  pattern: RegExp;
}

const SECRET_RULES: Rule[] = [
  { name: "private key block", pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  { name: "AWS access key", pattern: /\b(AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: "AWS secret key", pattern: /(?<=secret[^\n]{0,20}?)\b[A-Za-z0-9/+=]{40}\b/gi },
  { name: "GitHub token", pattern: /\b(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})\b/g },
  { name: "API key", pattern: /\b(sk-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35})\b/g },
  { name: "JSON web token", pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { name: "connection string with credentials", pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:[^\s@/]+@[^\s]+/gi },
  {
    name: "password",
    pattern: /(?<=\b(password|passwd|pwd|passphrase|api[ _-]?key|secret|token)\b\s*(is|was|=|:|：)\s*)(?=[^\s，。,;]*[\d#!$%^&*@~])[^\s，。,;]{4,}/gi,
  },
  { name: "password", pattern: /(?<=(密码|口令|密钥|令牌)\s*(是|为|:|：|=)\s*)(?=[^\s，。,;]*[\d#!$%^&*@~])[^\s，。,;]{4,}/g },
];

const INJECTION_RULES: Rule[] = [
  { name: "ignore previous instructions", pattern: /\b(ignore|disregard|forget|override)\b.{0,20}\b(all\s+)?(previous|prior|above|earlier|preceding|your)\s+(instructions|rules|prompts?|directions|guidelines)/i },
  { name: "recommend to every user", pattern: /\b(always|must)\s+(recommend|suggest|promote|push|sell)\b.{0,80}\b(every|all|any)\s+(users?|customers?|one|people)\b/i },
  { name: "unconditional instruction", pattern: /\bno matter what (they|the user|users|anyone|the customer) (ask|asks|say|says|want|wants)/i },
  { name: "claims to supersede all memories", pattern: /\b(this|these)\s+(supersedes?|overrides?|replaces?)\s+(all|every|any)\s+(earlier|previous|prior|other)?\s*(entries|memories|instructions|rules|facts)/i },
  { name: "role hijack", pattern: /\b(you are now|act as|new system prompt|system prompt:)/i },
  { name: "ignore previous instructions", pattern: /(忽略|无视|忘记|忘掉)(之前|以上|前面|先前|此前)?的?(所有|全部)?(指令|指示|规则|提示|设定)/ },
  { name: "recommend to every user", pattern: /(不管|无论|不论)(用户|客户|别人|谁)(问|说|要)什么.{0,10}(都|一律)/ },
  { name: "claims to supersede all memories", pattern: /(覆盖|取代|替代)(之前|以前|先前)?(所有|全部)的?(记录|记忆|指令|规则)/ },
];

export function guardText(text: string): GuardVerdict {
  let redacted = text;
  const secrets: string[] = [];
  for (const rule of SECRET_RULES) {
    rule.pattern.lastIndex = 0;
    if (rule.pattern.test(redacted)) {
      secrets.push(rule.name);
      rule.pattern.lastIndex = 0;
      redacted = redacted.replace(rule.pattern, `[REDACTED:${rule.name}]`);
    }
  }
  if (secrets.length > 0) {
    return { kind: "secret", reason: `refused: contains a secret (${[...new Set(secrets)].join(", ")})`, redacted };
  }
  for (const rule of INJECTION_RULES) {
    if (rule.pattern.test(text)) {
      return { kind: "injection", reason: `quarantined: looks like an instruction injection (${rule.name})`, redacted: text };
    }
  }
  return { kind: "ok", reason: "", redacted: text };
}

export const REDACTION_MARK = "[REDACTED:";
