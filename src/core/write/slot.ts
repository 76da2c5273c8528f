import { CJK_RUN, hasCjk } from "../text/cjk.js";
import { withDigits } from "../text/numerals.js";
import { contentTokens, contentTokenSet, nameWords } from "../text/tokens.js";

/**
 * A slot is the thing plus the attribute a statement gives a value for. Two statements share a
 * slot when everything they say but their values is the same ("the default shell is bash" /
 * "the default shell is fish"); they do not when the same thing gets another attribute ("the
 * queue retries three times" / "the queue keeps messages for a week").
 */

/**
 * Words that announce a change without naming what it replaces; in Chinese also a verb with a
 * resultative 到/成 right before a number ("票价涨到 12 元", "小组缩成 3 人"), but not a verb that only
 * says something got done ("完成 3 个", "达成 2 项"), nor the end of a range after a time ("两点到五点", "9号到12号"); a choice
 * said to be settled, then its value ("场地定了，是…", "the caterer is confirmed: …"); "switch" except where it operates a
 * device ("switch them off"); a Chinese verb of change before 的 modifies a noun ("升级的窗口"); "went" only where it chooses or moves a value
 * ("went with Option B", "rent went up", "the refund went through."), not where someone went somewhere. A return
 * to an earlier value is a change too: "the quota was reverted to 50 GB", "运费又恢复成满 99 包邮". An amount moved
 * to a number, as the English for 涨到/降到: "the deposit was raised to 300", "class size cut back to 18".
 */
const CHANGE_VERB =
  /(?![完达组形构])(?!(?<=[\d一二两三四五六七八九十]\s*)[点时号日月])[\u4e00-\u9fff](?:到|成)了?\s*(?=\d|(?:早上|上午|中午|下午|晚上|凌晨)?[一二两三四五六七八九十百千万]+(?:点|个|天|分钟|小时|元|块|人|%))|\b(switch(ed|es|ing)?(?!\s+(?:[\w'’-]+\s+){0,2}?(?:on|off)(?![\w-]))|mov(ed|ing)|migrat(ed|ing)|chang(ed|ing)|replac(ed|ing)|swapp?(ed|ing)?|upgrad(ed|ing)|downgrad(ed|ing)|convert(ed|ing)|revert(ed|ing)?\s+to|roll(ed|ing)?\s+back\s+to|renam(ed|ing)|port(ed|ing)|transition(ed|ing)|bump(s|ed|ing)?|(?:increased|decreased|raised|reduced|lowered|cut|dropped|rose|risen|fell|fallen|grew|grown|extended|shortened|doubled|halved|trimmed|expanded|shrank|shrunk|climbed|jumped|slashed|upped|scaled(?:\s+(?:up|down|back))?)\s+(?:[\w-]+\s+)?to(?=\s+[~≈$€£¥]?\d)|push(ed|ing)\s+(?:back|out|forward)\s+to|brought\s+forward\s+to|pulled\s+(?:in|forward)\s+to|(?:postpon|delay)(ed|ing)\s+to|updat(ed|ing)\s+to(?=\s+(?:[\w.-]*\d|v\d|version|firmware|release|build))|went\s+(?:with|for|from|up|down|over to|back to|through(?=\s*(?:[,.;!?]|$))))\b|\b(?:ended\s+up\s+(?:with|going\s+with|choosing|picking|using|on)|settled\s+on|opted\s+for)\b|(?:最后|最终|终于)(?:还是)?(?:决定|定|选|敲定|拍板|确认|确定)|(?:定|定下来|确定|敲定|拍板|落实)了[，,：:]\s*(?:是|由|选了?|就是)?|\b(?:is|are|has\s+been|have\s+been|got|was)\s+(?:now\s+)?(?:settled|decided|confirmed|locked\s+in|finali[sz]ed)\s*[:—–]\s*(?=\S)|(?<![不没别])换(?![多少勤快慢早晚])[\u4e00-\u9fff]{1,2}了|换成|改成|改为|改用|换了|改回|换回|退回(?:到|至)?|恢复(?:成|为|到)|回滚(?:到|至)|回退(?:到|至)|换到|(?:切换|迁移|升级|降级|替换|取代|替代)(?!的)|改到|转到|挪到|(?:调整|变更|更改|修改|下调|上调)(?:为|成|到)/i;

/** Words that put a statement next to earlier ones rather than in their place. */
// "too" adds only where it closes its clause, maybe before a time word ("the mobile app reads it too.", "Lisbon has one too
// these days"); before any other word it is a degree ("too slow", "too many tickets").
// "second" as an ordinal, not the unit ("a second region", not "100 requests per second"); "同时" opening a clause
// ("同时，…"), not inside a word ("同时在线" is "concurrently online"); "又" adding, not "again" before a change ("又涨到 9 元");
// "还" adding ("还买了一台"), not "still" or "rather" ("还在排队", "还是周五").
const ADDITIVE =
  /\b(also|as well|another|additionally|in addition|besides|alongside|on top of|plus|extra)\b|\btoo\b(?=(?:\s+(?:now|now too|these days|nowadays|today|again|since \w+))?\s*(?:[.,;!?)]|$))|(?<!\bper\s|\bevery\s|\d\s?|\d-)\bsecond\b(?!s)|另外|也|还(?!没|是|不|在|有点|挺|好|行|可以)[\u4e00-\u9fff]|额外|(?:^|[，,。；;：:]\s*)同时|此外|又(?!涨|跌|降|升|改|换|变|调|回|提|延|缩|迁|搬|坏|挂|崩)/i;

/**
 * A correction of what the speaker just said opens with a retraction and gives the right value:
 * "no wait, it's the blue cable", "sorry, I meant Thursday", "不对，是三号楼"; a bare "no," before a number
 * ("nope, gate 14") or a slip of the hand or eye ("写错了，是 B2 层") too. It replaces the
 * closest thing said moments before, whether or not it names the old value.
 */
const CORRECTION = /^\W*((?:no|nope|nah),\s+(?=[^.!?]*\d)|no,?\s+wait|wait,?\s+no|scratch that|sorry,?\s+i\s+meant?|i\s+meant?|the user\s+(?:means|meant)|(?:actually,?\s+)?make\s+(?:that|it)\b|correction|actually,?\s+(no|it'?s|that'?s|i)|oops,?\s+(i mean|it'?s)|my bad|strike that|rather)\b|^\W*(不对|(?:说|打|写|看|听|记)错了|更正|纠正一下|哦不|不是，|应该是|我记错了)|^[^，。,.]{0,16}?(?:说|讲|发|给|写)的[^，。,.]{0,10}?(?:有误|不对|错了|搞错了|弄错了)[，,]\s*(?:实际|其实|应该|正确的)|\b(?:what\s+i\s+(?:said|told\s+you|wrote)|i\s+(?:said|told\s+you|wrote))\b[^.,;]{0,40}?\b(?:was|is)\s+wrong\b[^.]{0,4}[,;:—–-]\s*(?:it'?s|it\s+is|actually)/iu;

export function correctsEarlier(text: string): boolean {
  return CORRECTION.test(text);
}

/**
 * A correction that says when the corrected words were said reaches back that far: "correction to what I said this
 * morning", "更正一下昨天说的" (examples in no case file) correct a statement hours old, not only the one just made.
 * The reach in hours, or 0 when the correction names no earlier time.
 */
const SAID_WHEN = [
  { hours: 24, re: /\b(?:this\s+morning|earlier\s+today|today|this\s+afternoon)\b|今天|上午|早上|刚才/i },
  { hours: 48, re: /\byesterday\b|昨天|昨晚/i },
  // "Earlier", "之前", "last time" put no bound on it: a month, and beyond the slip's window the statement corrected must be on the topic.
  { hours: 24 * 30, re: /\b(?:earlier|before|previously|last\s+time)\b|之前|前面|上次|先前/i },
];

export function correctionReachHours(text: string): number {
  if (!CORRECTION.test(text)) return 0;
  const head = text.slice(0, 80);
  if (!/\b(?:said|told|wrote|mentioned|gave)\b|说|讲|发|给你/i.test(head)) return 0;
  return Math.max(0, ...SAID_WHEN.filter((w) => w.re.test(head)).map((w) => w.hours));
}

/**
 * A change verb in its base form is a past change when a time marker puts it in the past, as people
 * writing in a second language say it: "we move the office to Leeds last month", "上周 we switch the CDN".
 * A modal or a future time makes it a plan.
 */
const CHANGE_BASE = /\b(?:switch|move|migrate|change|replace|swap|upgrade|downgrade|convert|port|rename)\b/i;
const PAST_MARKER = /\b(?:yesterday|last\s+(?:week|weekend|month|year|night|sprint|quarter|mon|tues|wednes|thurs|fri|satur|sun)\w*|(?:\d+|a|an|one|two|three|few|couple of)\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?)\s+ago|earlier today|this morning)\b|昨天|前天|上周|上个?月|去年/i;
const FUTURE_MARKER = /\b(?:will|shall|going to|gonna|plan(?:s|ning)? to|want to|need to|should|next|tomorrow)\b|'ll\b|下周|下个?月|明天|打算|准备|计划/i;

/**
 * A change verb written with a capital inside a sentence is a name, not a verb: "the Port Louis
 * office", "builds for the Switch" announce nothing.
 */
export function announcesChange(text: string): boolean {
  if (CHANGE_BASE.test(text) && PAST_MARKER.test(text) && !FUTURE_MARKER.test(text)) return true;
  for (const m of text.matchAll(CHANGE_WORDS)) {
    const at = m.index ?? 0;
    const sentenceStart = /(^\s*|[.!?:;]\s*|["'“(]\s*)$/u.test(text.slice(0, at));
    const named = /^\p{Lu}/u.test(m[0]) && !sentenceStart;
    if (!named) return true;
  }
  return false;
}


/**
 * Clauses of a message: a comma, a semicolon, a sentence end or a "so / because / but" that opens a
 * consequence or a reason starts another one.
 */
export function clausesOf(text: string): string[] {
  return text
    .split(/[,;:!?，；：。！？\n]+|\.(?=\s|$)|\s+(?=(?:so|because|since|but|and then)\b)|\s[-–—]\s/iu)
    .map((c) => c.trim())
    .filter((c) => c.length > 0);
}

/**
 * The words that open a clause saying why or what follows rather than what is: a consequence, a reason or an
 * aside ("…, so reviews go faster", "…，省得每次都手动改"), and a purpose ("…, in order to cut cold starts",
 * "…，以便夜里自动重试"). One list: the additive reading ignores the first kind, the slot reading both.
 */
const ASIDE_OPENERS = ["so", "because", "since", "which", "meaning", "that way", "so that", "as a result", "所以", "因为", "这样", "于是", "免得", "省得", "结果"];
const PURPOSE_OPENERS = ["方便", "以便", "好让", "为了", "to make it easier", "to make life easier", "in order to"];
const openerPattern = (words: readonly string[]): RegExp =>
  new RegExp(`^(?:${words.map((w) => w.replace(/\s+/g, "\\s+")).join("|")})(?![a-z])`, "iu");
/** A clause that gives a consequence, a reason or an aside: "so …", "because …", "所以…", "这样…". */
const ASIDE = openerPattern(ASIDE_OPENERS);

/**
 * Something said to be available is one more of what is on offer, not the only one: "a Cantonese interpreter is
 * available on weekend mornings", "oat milk is now available at the kiosk". "Only" makes it the whole.
 */
const AVAILABLE = /\b(?:is|are)\s+(?:now\s+|also\s+)?available\b|\bnow\s+available\b/i;
const ONLY = /\b(?:only|solely|just)\b|只有|仅/i;

/** An addition that gives the new total is the new value of the count: "two more vans arrived, that makes 9", "又招了两个，现在一共七个人". */
const NEW_TOTAL = /\b(?:that makes|which makes|bringing (?:it|us|the total) to|brings (?:it|us|the total) to|(?:for )?a total of|in total (?:now|that'?s)|now \d+ in total)\b|(?:现在|目前)?(?:一共|总共|合计)(?:是|有)?\s*[\d一二两三四五六七八九十百千万]+/i;

/**
 * "also / as well / 另外 / 也": an addition, unless it also names what it replaces, gives the new total,
 * or announces a change in so many words ("we also switched the cache to Valkey"), or the additive word
 * sits only in a consequence or a reason, which adds nothing to the value the message gives ("the
 * standup moved to 10, so we get an extra half hour of focus", "周会改到周四了，这样大家也能多睡会儿").
 */
export function isAdditive(text: string): boolean {
  if (AVAILABLE.test(text) && !ONLY.test(text) && oldValues(text).length === 0) return true;
  if (!ADDITIVE.test(text) || oldValues(text).length > 0 || NEW_TOTAL.test(text) || announcesChange(text)) return false;
  const clauses = clausesOf(text);
  return clauses.length < 2 || clauses.some((c) => ADDITIVE.test(c) && !ASIDE.test(c));
}

/**
 * A statement that vouches for part of the earlier state: the attribute it names stays as it was. It changes or
 * adds another attribute and keeps this one, so it continues the earlier memory rather than replacing it.
 * Examples, in no case file: "the night bus now stops at 01:10, same route as always", "门诊换了护士长，地点不变".
 * "As usual" before a verb is a value, not a vouching: "周日照常营业" says the shop opens on Sundays.
 */
const KEPT_AS_BEFORE =
  /\bsame\s+(?:[\w-]+\s+){1,2}?as\s+(?:before|usual|always|ever|last\s+(?:time|year|season|month|week))\b|\b(?:otherwise|everything\s+else|the\s+rest|all\s+else)\s+(?:is\s+|stays\s+|remains\s+)?(?:unchanged|the\s+same|as\s+(?:before|it\s+was))\b|\b(?:stays?|remains?)\s+(?:the\s+same|unchanged|as\s+(?:before|it\s+was|is))\b|(?<!\bnot\s)\bunchanged\b|(?:照旧|照常)(?=[，,。.；;！!\s]|$|不动|不变)|(?<![若如果要])不变(?![化成])|没变|还是原来的|(?:跟|和|同)(?:以前|之前|原来|上次|去年)一样/i;

export function keepsPartAsBefore(text: string): boolean {
  return KEPT_AS_BEFORE.test(text);
}

/**
 * The words of what a statement vouches for ("route" in "same route as always", "地点" in "地点不变"); none when it
 * vouches for everything else ("otherwise unchanged"). A memory that holds none of them is not the part kept.
 */
export function vouchedWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const clause of clausesOf(text)) {
    if (!KEPT_AS_BEFORE.test(clause)) continue;
    if (/\b(?:otherwise|everything\s+else|the\s+rest|all\s+else)\b|其他|其余|别的/i.test(clause)) return new Set();
    for (const t of contentTokens(clause)) if (!KEPT_WORDS.has(t)) out.add(t);
  }
  return out;
}

const KEPT_WORDS = new Set(["same", "before", "usual", "always", "ever", "stay", "stays", "remain", "remains", "unchanged", "不变", "照旧", "照常", "没变", "一样", "以前", "之前", "原来", "上次"].flatMap((w) => [w, ...contentTokens(w)]));

// A word of a value phrase may be possessive ("the user's personal inbox"): the value is the whole phrase, not its owner.
// A value may carry its unit's symbol ("-18°C", "€500", "15%"): the symbol is part of the word.
// A word of a value phrase; a clock time ("22:15") and a number with thousands separators ("12,500") are one word.
const VALUE_WORD = String.raw`(?:\d{1,2}:\d{2}(?!\d)|[\p{L}\p{N}](?:[\p{L}\p{N}._+#/%°℃℉‰-]|,(?=\d{3}(?!\d)))*)`;
const PHRASE = String.raw`((?:[-+−$€£¥](?=\p{N}))?${VALUE_WORD}(?:['’]s)?(?:\s+${VALUE_WORD}(?:['’]s)?){0,3})`;
/** The shortest phrase before a word that ends it ("replaced Redux Toolkit with Zustand for state": not "Redux Toolkit with Zustand"). */
const PHRASE_UNTIL = PHRASE.replace("{0,3})", "{0,3}?)");
// A clock time is one value ("由21:00调整为22:00"), its colon no break.
const CJK_PHRASE = String.raw`\s*(\d{1,2}[:：]\d{2}(?::\d{2})?|[\p{L}\p{N}._+#/%°℃℉‰$€£¥-]+(?:\s+[\p{L}\p{N}._+#/%°℃℉‰-]+){0,2}|[\u4e00-\u9fff]{1,8})\s*`;

/**
 * The kinds of statement that name the value they replace, each capturing that value:
 * "the linter went from eslint to biome", "pnpm → bun", "we no longer deploy on Heroku",
 * "use tabs instead of spaces", "replaced Jenkins with Buildkite", "从 Maven 改成了 Gradle", "不再用 Jira".
 */
const NAMES_OLD_VALUE: RegExp[] = [
  // A route or span that names the thing ("the bus from Leith to Portobello runs every 20 min", "the bridge from the car
  // park to the hall is closed") is followed by the verb it is the subject of; a change ends its clause after the new value.
  new RegExp(String.raw`\bfrom\s+(?:the\s+|a\s+|an\s+|our\s+)?${PHRASE_UNTIL}\s+(?:to|into|onto|over to)\s+(?!(?:the\s+)?(?:(?!(?:and|but|so|it|which|that|this|they|we)\b)[\p{L}\p{N}-]+\s+){1,3}(?:is|are|was|were|takes?|took|leaves?|left|departs?|departed|runs?|ran|costs?|opens?|closes?|arrives?|stops?)\b)\S`, "iu"),
  new RegExp(String.raw`${PHRASE}\s*(?:→|->|=>|⟶)\s*\S`, "iu"),
  // "X is no longer used for Y" names X, its subject (a rule below), not what follows the participle.
  new RegExp(String.raw`\bno longer\s+(?!(?:used|needed|supported|maintained|required|wanted|recommended|allowed|in\s+use)\b)(?:(?:uses?|using|on|in|at|runs? on|deploys? (?:to|on)|hosted on|with|has|have|is|are|called|named|prefers?)\s+)?(?:the\s+|a\s+)?${PHRASE}`, "iu"),
  new RegExp(String.raw`\bno more\s+(?:the\s+)?${PHRASE}`, "iu"),
  new RegExp(String.raw`\b(?:not|n't)\s+(?:(?:use|using|on|in)\s+)?(?:the\s+)?${PHRASE}\s+any\s?more\b`, "iu"),
  // A contrastive preposition naming what the value is put in the place of: "staging uses Caddy in place of nginx".
  new RegExp(String.raw`\b(?:instead of|in place of|in lieu of|rather than)\s+(?:the\s+|a\s+|an\s+)?${PHRASE}`, "iu"),
  // A value ruled out in so many words: "the Lisbon option's been scrapped", "Vendor B fell through", "Friday won't work for the client".
  // "off the table" and "a no-go" are fixed idioms of rejection, "on the shelf" and "mothballed" of putting away: their words cannot vary.
  new RegExp(String.raw`${PHRASE}(?:['’]s|\s+(?:is|are|was|were|has|have|got))(?:\s+been)?\s+(?:now\s+)?(?:off the table|ruled out|scrapped|axed|canned|cancell?ed|shelved|killed|binned|dead(?:\s+(?:for|to)\s+(?:us|this|the)\b)|a no-go|out of the (?:picture|running)|on the shelf|in storage|mothballed|gathering dust)\b`, "iu"),
  new RegExp(String.raw`${PHRASE}\s+(?:fell through|won['’]t work|will not work|doesn['’]t work (?:for|with))\b`, "iu"),
  // A named product whose term with us ran out, or that went back where it came from, is no longer in use: "the
  // Mailgun plan expired in March", "our Lumen lease ended", "the Brother label printer was returned to the supplier".
  new RegExp(String.raw`(?=\p{Lu})${PHRASE_UNTIL}(?:['’]s)?\s+(?:contract|licen[cs]e|subscription|lease|plan|account|trial|deal)\s+(?:has\s+|had\s+)?(?:lapsed|expired|ended|run\s+out|ran\s+out|was\s+(?:cancell?ed|terminated|not\s+renewed))\b`, "u"),
  new RegExp(String.raw`(?=\p{Lu})${PHRASE_UNTIL}\s+(?:went|was\s+sent|got\s+sent|was\s+returned|got\s+returned)\s+(?:back\s+)?to\s+(?:the\s+|its\s+)?(?:vendor|supplier|seller|manufacturer|dealer|lessor|rental\s+company)\b`, "u"),
  // "X is out, Y in": the pair out … in is the idiom of one value taking another's place ("Figma's out, Penpot's in").
  new RegExp(String.raw`${PHRASE_UNTIL}(?:['’]s|\s+(?:is|are))\s+out\s*[,;—–-]+\s*[\p{L}\p{N}][\p{L}\p{N}._+#/-]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}._+#/-]*){0,2}(?:['’]s|\s+(?:is|are))?\s+in\b(?=\s*(?:$|[,.;!?—–-]|\p{Extended_Pictographic}|for\b|now\b|as\b))`, "iu"),
  // The old value given after the new one: "(it used to be 10 MB)", "it was Tuesdays before", "之前是70%".
  new RegExp(String.raw`\bused to be\s+(?:the\s+|a\s+|an\s+|on\s+|at\s+|in\s+)?${PHRASE}`, "iu"),
  new RegExp(String.raw`\b(?:it|this|that)\s+was\s+(?:the\s+|a\s+|an\s+|on\s+|at\s+)?${PHRASE_UNTIL}\s+(?:before|previously|until now|until recently)\b`, "iu"),
  new RegExp(String.raw`[，,（(]\s*(?:原来|之前|以前|本来|原先)(?:是|用的是|用|为)${CJK_PHRASE}`, "u"),
  // A value said to be too poor before it is replaced: "the DHT22 was too flaky, we swap it for an SHT31".
  new RegExp(String.raw`${PHRASE_UNTIL}\s+(?:was|is|were|are)\s+(?:way\s+|much\s+)?too\s+\w+[^.;]{0,40}?\b(?:replac(?:e|ed|ing)|swap(?:ped|ping)?|switch(?:ed|ing)?)\s+(?:it|them)\b`, "iu"),
  // A number said to be too much or too little is the value given up: "30 was too short for the upload", "五个人太少了".
  new RegExp(String.raw`(?:^|[,;:—–-]\s*|\b(?:and|but|since|as)\s+)(\d+(?:\.\d+)?)\s*(?:[A-Za-z%]+\s+)?(?:was|is|were|are)\s+(?:way\s+|much\s+|far\s+)?too?\s+(?:much|many|long|short|high|low|big|small|few|little|slow|fast|expensive|cheap|tight|loose)\b`, "iu"),
  new RegExp(String.raw`(?:^|[，,；;])\s*(\d+(?:\.\d+)?)\s*[\u4e00-\u9fff]{0,2}?(?:也|还是|实在|真的)?太(?:多|长|久|大|高|贵|少|短|小|低|慢|快|紧)了`, "u"),
  new RegExp(String.raw`(?:^|[，,。；;！!\s])${CJK_PHRASE}(?:那边|这个|那个|那家)?(?:不行了|没戏了|黄了|泡汤了|被否了|被毙了|作废了|不考虑了|(?:也|就|都|已经)?(?:不用了|不要了|停用了|下线了|淘汰了|退役了))`, "u"),
  // A verb of discarding in any form, its object, and what takes its place: "we dumped Expedia for X", "scrapped the Kafka
  // setup in favour of X", "replacing the Zendesk widget with Intercom for new shops".
  new RegExp(String.raw`\b(?:replac(?:e|es|ed|ing)|swap(?:s|ped|ping)?|trad(?:e|es|ed|ing)|ditch(?:es|ed|ing)?|drop(?:s|ped|ping)?|dump(?:s|ed|ing)?|scrap(?:s|ped|ping)?|junk(?:s|ed|ing)?|bin(?:s|ned|ning)?|ax(?:e|es|ed|ing)|abandon(?:s|ed|ing)?)\s+(?:the\s+|our\s+)?${PHRASE_UNTIL}\s+(?:with|for|in favou?r of)\b`, "iu"),
  // The new value as the subject of "replaces": "Acrobat Sign replaces DocuSign for permits", "Ruff supersedes flake8".
  new RegExp(String.raw`\b(?:replaces|supersedes|takes\s+over\s+from|took\s+over\s+from|is\s+replacing|has\s+replaced)\s+(?:the\s+|our\s+)?(?=[\p{Lu}\d])${PHRASE_UNTIL}(?=\s+(?:for|as|in|on|at)\b|\s*[,.;!]|\s*$)`, "u"),
  // A verb of removal whose object ends the clause: what was removed is the value left behind ("we've
  // retired the Perl scripts.", "getting rid of tox: nox runs the matrix now").
  new RegExp(String.raw`\b(?:dropp(?:ed|ing)|ditch(?:ed|ing)|remov(?:ed|ing)|delet(?:ed|ing)|ripp(?:ed|ing) out|t(?:ore|earing) out|g(?:ot|etting) rid of|kill(?:ed|ing) off|retir(?:ed|ing)|uninstall(?:ed|ing))\s+(?:support for\s+)?(?:the\s+|our\s+|all\s+)?${PHRASE_UNTIL}(?:\s+(?:config|configuration|setup|space|dependency|integration|support))?\s*(?:[.,;:!—–]|\s-\s|$|\s+(?:for good|entirely|completely|altogether)\b)`, "iu"),
  new RegExp(String.raw`${PHRASE}\s+(?:(?:has|have|was|were|got|is|are)\s+(?:been\s+)?)(?:replaced|superseded|retired|dropped|gone|history|deprecated|decommissioned|phased out|sunset(?:ted)?)\b`, "iu"),
  new RegExp(String.raw`${PHRASE}\s+(?:is|are|was|were)\s+no longer\s+(?:needed|supported|maintained|running|the default|in use|used)\b`, "iu"),
  new RegExp(String.raw`\b(?:moved|migrated|switched|took|got|brought)\s+(?:[\w'’-]+\s+){0,3}?(?:away\s+)?off\s+(?:of\s+)?(?:the\s+)?${PHRASE}`, "iu"),
  // A correction that opens by rejecting the old value: "nope, not Tuesday — the demo is Wednesday", "sorry, not 4G: the plan has 5G".
  new RegExp(String.raw`^\W*(?:(?:[Oo]ops|[Ss]orry|[Nn]o|[Nn]ope|[Ww]ait|[Aa]ctually|[Cc]orrection)[,!:]?\s+)*[Nn]ot\s+(?:the\s+|a\s+|an\s+|on\s+|at\s+|in\s+)?(?=[\p{Lu}\d"'\x60])${PHRASE_UNTIL}\s*[,;:—–-]`, "u"),
  // A correction that strikes the old value out before giving the new: "strike the 2 pm: the call is at 4", "scratch Lisbon, it's Porto".
  new RegExp(String.raw`^\W*(?:(?:[Oo]ops|[Ss]orry|[Ww]ait|[Aa]ctually|[Cc]orrection)[,!:]?\s+)*(?:[Ss]cratch|[Ss]trike|[Ff]orget|[Dd]isregard)\s+(?:the\s+|that\s+|my\s+)?(?!that\b|it\b|this\b)${PHRASE_UNTIL}\s*[,;:—–-]`, "u"),
  new RegExp(String.raw`(?:从|由)${CJK_PHRASE}(?:换成|改成|改为|改用|换到|切换到|切到|迁移到|迁到|升级到|降级到|转到|挪到|变成|调整为|调整到|改到)`, "u"),
  // From A, a verb of raising, cutting or moving and its resultative, to B: "版本从 18 升到了 20", "从 3 人扩到 5 人".
  new RegExp(String.raw`(?:从|由)${CJK_PHRASE}(?:升|降|涨|跌|扩|缩|增|减|提|调|挪|搬|迁|移|延|推|加)(?:到|成|为|至)`, "u"),
  // "不" / "没再" + a verb + its object + a sentence-final "了" is a stopped state, the object the value left behind:
  // "不走中通了", "不用 Trello 了", "不在三楼上课了", "没再用钉钉了".
  // The object may be an address or a numbered place ("不在滨江路15号了").
  new RegExp(String.raw`(?:不|没再?)(?:用|走|找|在|选|订|交给|发给)\s*([A-Za-z0-9._+#/-]+(?:\s+[A-Za-z0-9._+#/-]+){0,2}|[\u4e00-\u9fff]{1,6}\d+[\u4e00-\u9fff]{0,2}?|[\u4e00-\u9fff]{2,6}?)\s*[\u4e00-\u9fff]?了`, "u"),
  // "不再" + a verb, with the preposition it takes: "不再交给外包", "不再由运维审批", "不再走海运".
  new RegExp(String.raw`不再(?:使用|采用|[\u4e00-\u9fff](?:在|到|于|给|由)?)${CJK_PHRASE}`, "u"),
  // A contrast that rejects a value: "the sync runs hourly, not daily", "用 UTC 而不是北京时间", "是周三不是周二".
  new RegExp(String.raw`[,;，；]\s*(?:and\s+|but\s+)?not\s+(?:the\s+|a\s+|an\s+|on\s+|in\s+|at\s+)?(?=[\p{Lu}\d"'\x60]|[\p{Ll}\d]+[-_.][\p{L}\d])${PHRASE}\s*[.!。]?\s*$`, "u"),
  // The same, with the rejected value said to be the earlier one: "the lift must carry 1,600 kg, not 1,000 as the old spec
  // had it", "due in 45 days, not 30 like before".
  new RegExp(String.raw`[,;，；]\s*(?:and\s+|but\s+)?not\s+(?:the\s+|a\s+|an\s+|on\s+|in\s+|at\s+)?(?=[\p{Lu}\d"'\x60])${PHRASE_UNTIL}\s+(?:like|as)\s+(?:before|previously|it\s+(?:was|used\s+to\s+be)|(?:in\s+|on\s+)?(?:the|our)\s+(?:earlier|old|previous|original|former|first|last)\b)`, "u"),
  new RegExp(String.raw`(?:而不是|而非)${CJK_PHRASE}`, "u"),
  new RegExp(String.raw`不是${CJK_PHRASE}[。.！!]?\s*$`, "u"),
  new RegExp(String.raw`不是${CJK_PHRASE}了`, "u"),
  new RegExp(String.raw`把${CJK_PHRASE}(?:换成|改成|改为|替换成|替换为|换掉|迁移到)`, "u"),
  // 把 + the object + a verb of taking it away: "把旧的网关撤了", "把 Jenkins 下掉了".
  new RegExp(String.raw`把${CJK_PHRASE}(?:撤|拆|删|下|去|砍|停|干|扔|关)(?:掉|了)`, "u"),
  new RegExp(String.raw`(?:替换|取代|替代)(?:了)?(?:原来的|之前的|以前的)?${CJK_PHRASE}`, "u"),
  new RegExp(String.raw`(?:弃用|放弃|停用|废弃)(?:了)?${CJK_PHRASE}`, "u"),
  // A name opening the clause, then a verb that discards it: "Jira 太重了直接弃了", "旧的 CI 已经淘汰了".
  /(?:^|[，,。；;]\s*)([A-Za-z][\w.+#-]*(?:\s+[A-Za-z0-9][\w.+#-]*){0,2})\s*(?:[^，,。；;A-Za-z]{0,8}?)(?:直接|已经|已|彻底|全部)?(?:弃了|弃用了?|扔了|淘汰了|不用了|下线了|停用了)/u,
  // The earlier value said first, then what happened to it: "原来是 A，现在 …", "之前用 A，去年就迁到了 …".
  new RegExp(String.raw`(?:原来|之前|以前|本来|原先)(?:是|用|用的是|的)${CJK_PHRASE}[，,]?\s*(?:现在|目前|如今|[^，,。；;]{0,12}?(?:升级?|改|换|切换?|迁移?|调整?|降级?|转)(?:到|成|为|用))`, "u"),
  new RegExp(String.raw`${CJK_PHRASE}(?:已经|已)(?:被)?(?:换成|改成|改为|替换|取代|弃用|停用)`, "u"),
  // A name in Latin script right before a verb of swapping is what is swapped out: "打印服务 CUPS 换成 PaperCut 了",
  // "客户端 Electron 改成 Tauri". A Chinese word there may be the thing as well as its value, so only a name counts.
  /(?:^|[\s，,。；;：:])([A-Za-z][\w.+#-]*(?:\s+[A-Za-z0-9][\w.+#-]*){0,2})\s*(?:换成|改成|改为|替换成|换到|切到|切换到)/u,
];

/**
 * In a sentence that announces a change, a name called the original one is the value left behind: "moved the
 * docs to Starlight, the old Docusaurus theme is archived", "监控改用 VictoriaMetrics 了，原来的 Prometheus 只留一周".
 * Outside a change "the original X" is only a name ("原来的 Jenkins 还在机房").
 */
const NAMES_OLD_VALUE_IN_A_CHANGE: RegExp[] = [
  new RegExp(String.raw`\b(?:the\s+)?(?:old|previous|former|original|legacy)\s+([A-Z0-9][\p{L}\p{N}._+#/-]*(?:\s+[A-Z0-9.][\p{L}\p{N}._+#/-]*){0,2})`, "u"),
  new RegExp(String.raw`(?:原来的|之前的|以前的|原先的|旧的|老的)\s*([A-Za-z0-9][A-Za-z0-9._+#/-]*(?:\s+[A-Za-z0-9][A-Za-z0-9._+#/-]*){0,2})`, "u"),
];

/** Words that can open the captured phrase but are not part of the value ("from the old X"). */
const LEADING_NOISE = /^(?:(?:old|previous|former|legacy|original|existing|current|our|the|a|an|using|use)\s+|(?:原来的|之前的|以前的|旧的|老的)\s*)/i;
/** A Chinese topic before the value, closed by a word for "as for" ("支付那块微信", "前端这边 Vue"): the value is after it. */
const TOPIC_ZH = /^[\u4e00-\u9fff]{1,6}?(?:那块|这块|那边|这边|方面)\s*(?=\S)/u;

/** The values a statement says it replaces ("from A to B" → A), as content tokens; empty when it names none. */
export function oldValues(text: string): string[][] {
  const out: string[][] = [];
  const rules = announcesChange(text) ? [...NAMES_OLD_VALUE, ...NAMES_OLD_VALUE_IN_A_CHANGE] : NAMES_OLD_VALUE;
  for (const rule of rules) {
    const m = text.match(rule);
    // A phrase found before its marker may reach back over a sentence break ("…lot it is. Woodside's off the table"), one
    // found after it may run on into the next ("no longer 20 kg. Since May it is…"): only the marker's own sentence counts.
    const pieces = m?.[1]?.split(/[.!?;:,](?=\s)/);
    const phrase = (m?.[0].startsWith(m[1] ?? "") ? pieces?.pop() : pieces?.[0])?.replace(LEADING_NOISE, "").replace(TOPIC_ZH, "").trim();
    if (!phrase) continue;
    // In "订单库 MySQL 8.0" the value is "MySQL 8.0": when a phrase holds value-like words, those are the value.
    const values = [...valueTokens(phrase)];
    const tokens = values.length > 0 && values.length < contentTokens(phrase).length && /[\u4e00-\u9fff]/.test(phrase) ? values : contentTokens(phrase);
    if (tokens.length > 0 && !out.some((o) => o.join(" ") === tokens.join(" "))) out.push(tokens);
  }
  return out;
}

/** Does a memory hold this value: every token of the value phrase occurs in it. */
export function holdsValue(tokens: Set<string>, value: string[]): boolean {
  if (value.length === 0) return false;
  if (value.every((t) => tokens.has(t))) return true;
  // A number is the same number with a leading zero: a date written "3月14号" is held by "2026-03-14", "9/7" by "09/07".
  const numbers = new Set([...tokens].filter((t) => /^\d+$/.test(t)).map(Number));
  return value.every((t) => tokens.has(t) || (/^\d+$/.test(t) && numbers.has(Number(t))) || isTailOfHeld(t, tokens));
}

/**
 * A part number is often named by its distinctive tail: "the F411" for an STM32F411, "the 4090" for an RTX4090.
 * The tail must be model-like (four characters or more, digits in it) and the whole code one word.
 */
function isTailOfHeld(value: string, tokens: Set<string>): boolean {
  if (value.length < 4 || !/\d/.test(value) || !/^[a-z0-9]+$/.test(value)) return false;
  return [...tokens].some((t) => t.length >= value.length + 2 && t.endsWith(value) && /^[a-z0-9]+$/.test(t) && /[a-z]/.test(t.slice(0, -value.length)));
}

/**
 * Tokens that are values rather than the thing or attribute: numbers and versions, code-like
 * identifiers (snake_case, dotted, camelCase), names written with a capital inside a sentence, and
 * Latin words inside Chinese text ("缓存用 Valkey").
 */

export function valueTokens(text: string): Set<string> {
  const out = new Set<string>();
  const cjk = hasCjk(text);
  // Chinese characters are not values by themselves: in "超时时间从60秒改成30秒" the values are 60 and 30, not the whole run.
  const latin = text.replace(CJK_RUN, (run) => " ".repeat(run.length));
  const words = latin.match(/[\p{L}\p{N}][\p{L}\p{N}_.+#/-]*/gu) ?? [];
  words.forEach((w, i) => {
    const sentenceStart = i === 0 || /[.!?。！？:：]\s*$/.test(text.slice(0, latin.indexOf(w)));
    // In Chinese text a Latin word that a number follows closely is what the number is for ("minSdk 是 24",
    // "Redis 内存上限调到 8GB"), not a value of its own.
    const keyOfNumber = cjk && !/\d/.test(w) && /^\s*[\u4e00-\u9fff]{1,6}\s*\d/u.test(text.slice(text.indexOf(w) + w.length));
    if (keyOfNumber) return;
    const isValue =
      /\d/.test(w) ||
      /[_.#+/]/.test(w.replace(/[.]$/, "")) ||
      /[a-z][A-Z]/.test(w) ||
      (/^[A-Z]/.test(w) && !sentenceStart) ||
      // A compound joined by a hyphen with a capital after it is a name wherever it stands ("Quayside-Crew", "Wi-Fi").
      /^[A-Z][\p{L}\p{N}]*-[\p{Lu}\p{N}]/u.test(w) ||
      /^[A-Z]{2,}$/.test(w) ||
      (cjk && /^[A-Za-z]/.test(w));
    if (!isValue) return;
    for (const t of contentTokens(w)) out.add(t);
  });
  for (const q of text.matchAll(/["'`“‘「『]([^"'`”’」』]{1,40})["'`”’」』]/gu)) for (const t of contentTokens(q[1] ?? "")) out.add(t);
  return out;
}

/** The content tokens of a list of words, one set: verbs are matched as contentTokens reads them ("accepts" → "accept"). */
function wordSet(words: string): Set<string> {
  return new Set(words.split(/\s+/).flatMap((w) => contentTokens(w)));
}

/** Verbs whose object is one of many (a person likes many things, a service needs many headers): sharing one is no shared attribute. */
const MANY_VALUED = wordSet(
  "use uses using like likes love loves enjoy enjoys have has own owns know knows speak speaks support supports include includes " +
    "contain contains need needs require requires accept accepts allow allows visit visited play plays read reads watch watches eat eats " +
    "want wants call calls run runs depend depends integrate integrates 用 使用 喜欢 爱 有 会 支持 包括 包含 需要 依赖 去过 吃 看 玩",
);

/**
 * Verbs of inclusion: what a thing accepts, supports, offers or likes is a set, and a second name given to one
 * adds to it. Examples, in no case file: "the kiosk accepts Apple Pay" / "the kiosk accepts Alipay", "这个插件支持
 * Vim 键位" / "这个插件支持 Emacs 键位". A number given instead is still one quantity ("supports up to 8 players").
 */
const INCLUSION = wordSet(
  "accept accepts take takes support supports include includes contain contains allow allows offer offers serve serves stock stocks carry carries " +
    "cover covers speak speaks like likes love loves enjoy enjoys know knows integrate integrates need needs require requires visit visited " +
    "支持 接受 包括 包含 提供 覆盖 兼容 喜欢 爱 会 需要 去过",
);

/** The statement's verb is one of inclusion ("supports", "accepts", "支持"): what it names is one more of a set. */
export function saysIncluded(text: string): boolean {
  return [...slotTokens(text)].some((t) => INCLUSION.has(t));
}

/** Who a statement is about when that says nothing about which attribute it gives: the speaker, the team, the project. */
const OWNER_WORDS = new Set(["user", "team", "project", "we", "用户", "我们", "团队", "项目"].flatMap((w) => [w, ...contentTokens(w)]));

const CHANGE_WORDS = new RegExp(CHANGE_VERB.source, "giu");

/** Content tokens without the change and filler words that do not belong to the slot ("now", "switched", "改成"). */
export function slotTokens(text: string): Set<string> {
  const out = new Set<string>();
  for (const t of contentTokens(withoutSpeaker(text).replace(CHANGE_WORDS, " "))) if (!/^(now|new|current|currently|latest|update|updat|today)$/.test(t)) out.add(t);
  for (const t of nameWords(text)) out.add(t);
  return out;
}

/**
 * Who said it is not what it is about: "Priya says: …", "Omar mentioned that …", "小王说：…", a nickname and a colon ("老孙：…");
 * nor is whom to pass it on to: "let the night shift know, …", "跟仓库说一声，…" (examples in no case file).
 */
export function withoutSpeaker(text: string): string {
  return text
    .replace(/^\s*(?:(?:let|tell)\s+(?:the\s+)?[\p{L}' -]{1,30}?\s+know\s*[,:，：]|(?:跟|和|给|告诉|通知)[\u4e00-\u9fff]{1,6}?(?:说一声|说一下|说下|讲一下|讲一声|知会一声)\s*[，,：:])\s*/iu, "")
    .replace(/^\s*(?:[A-Z][\p{L}'-]*(?:\s+[A-Z][\p{L}'-]*)?\s+(?:says|said|mentioned|noted|wrote)\s*(?:[:：]|that\b)?|[\u4e00-\u9fff]{1,4}(?:说|表示|提到)\s*[:：，,]?|[阿小老][\u4e00-\u9fff]\s*[:：])\s*/u, "");
}

export interface SlotMatch {
  common: string[];
  onlyNew: string[];
  onlyOld: string[];
}

/** A clause that gives a reason or a purpose. */
const REASON = openerPattern([...ASIDE_OPENERS, ...PURPOSE_OPENERS]);

/** The text without the clauses after its first that give a reason or a purpose, when `other` gives none. */
function withoutReason(text: string, other: string): string {
  if (clausesOf(other).slice(1).some((c) => REASON.test(c))) return text;
  const clauses = text.split(/(?<=[,;，；])\s*/u);
  const kept = clauses.filter((c, i) => i === 0 || !REASON.test(c.trim()));
  return kept.length === clauses.length ? text : kept.join(" ").replace(/[,;，；]\s*$/u, "");
}

const BRACKETED = /[(（][^()（）]{1,80}[)）]/u;
const BRACKETED_ALL = new RegExp(BRACKETED.source, "gu");

/** What two statements share and what each says alone, in slot tokens. */
function slotDiff(newerText: string, olderText: string): SlotMatch {
  // An aside in brackets said on one side only gives a reason or a note, not the attribute: "runs 95 minutes (a
  // scene was cut)" / "runs 110 minutes". Examples, in no case file: "the pool closes at 9 (staff shortage)",
  // "午休改到一点（食堂太挤）". Said on both sides, the brackets may hold the values ("(region fra)" / "(region ams)").
  // So is a closing clause of reason or purpose ("…用英文写，方便外包同事看" / "…用中文写").
  const newer = withoutReason(BRACKETED.test(olderText) ? newerText : newerText.replace(BRACKETED_ALL, " "), olderText);
  const older = withoutReason(BRACKETED.test(newerText) ? olderText : olderText.replace(BRACKETED_ALL, " "), newerText);
  const a = slotTokens(newer);
  const b = slotTokens(older);
  // An owner said on one side only qualifies the same thing ("the lab's scheduler" / "the scheduler"); two owners are two things.
  const ownerA = possessors(newer);
  const ownerB = possessors(older);
  const ownerOnly = (t: string, mine: Set<string>, theirs: Set<string>): boolean => mine.has(t) && theirs.size === 0;
  return {
    common: [...a].filter((t) => b.has(t)),
    // A verb of use or having said on one side only ("使用 Go" / "目前用 Rust") is how it is said, not a value.
    onlyNew: [...a].filter((t) => !b.has(t) && !ownerOnly(t, ownerA, ownerB) && !MANY_VALUED.has(t)),
    onlyOld: [...b].filter((t) => !a.has(t) && !ownerOnly(t, ownerB, ownerA) && !MANY_VALUED.has(t)),
  };
}

/**
 * The verb's object is what differs: the word after it is one of them. When the object is shared and what
 * differs comes later, the verb holds one thing and the difference is how it is done: "喜欢把周报写成表格" /
 * "喜欢把周报写成长文", "likes the build logs in JSON" / "likes the build logs in plain text".
 */
function takesDiffering(text: string, differing: string[], verbs: Set<string>): boolean {
  const tokens = contentTokens(text);
  return tokens.some((t, i) => verbs.has(t) && differing.includes(tokens[i + 1] ?? ""));
}

/** The words of who owns something ("the lab's", "Dana’s"): a possessive's noun. */
function possessors(text: string): Set<string> {
  return new Set([...text.matchAll(/([\p{L}\p{N}-]+)['’]s\b/gu)].flatMap((m) => contentTokens(m[1] as string)));
}

/**
 * Same slot, different value: what the two statements share names an attribute (not only who they
 * are about and a many-valued verb), and what differs is values on both sides — or one word each
 * side when the shared part is the larger and the verb holds one object ("prefers dark mode" /
 * "prefers light mode").
 */
export function sameSlot(newer: string, older: string): SlotMatch | null {
  const { common, onlyNew, onlyOld } = slotDiff(newer, older);
  if (onlyNew.length === 0 || onlyOld.length === 0) return null;
  const attribute = common.filter((t) => !OWNER_WORDS.has(t) && !MANY_VALUED.has(t));
  if (attribute.length === 0 || common.length < 2) return null;
  // A second object of a verb of inclusion is one more member, unless what differs is a number.
  const takes = (verbs: Set<string>): boolean => common.some((t) => verbs.has(t)) && (takesDiffering(newer, onlyNew, verbs) || takesDiffering(older, onlyOld, verbs));
  if (takes(INCLUSION) && ![...onlyNew, ...onlyOld].every((t) => /^\d+$/.test(t))) return null;
  const values = new Set([...valueTokens(newer), ...valueTokens(older)]);
  const allValues = [...onlyNew, ...onlyOld].every((t) => values.has(t));
  // A many-valued verb ("uses", "needs") holds several objects at once: only a swap of values is evidence of one slot.
  const oneWordEach = wordsOfValue(newer, onlyNew) === 1 && wordsOfValue(older, onlyOld) === 1 && !takes(MANY_VALUED);
  const namedPlaces = !takes(MANY_VALUED) && isValuePhrase(newer, onlyNew, values) && isValuePhrase(older, onlyOld, values);
  // The same frame up to the copula says which attribute, however long the values that follow it.
  if (sameFrame(newer, older)) return { common, onlyNew, onlyOld };
  if (!(allValues || oneWordEach || namedPlaces)) return null;
  if (common.length < Math.max(onlyNew.length, onlyOld.length)) return null;
  return { common, onlyNew, onlyOld };
}

const COPULA = /\s*(?:是|为)\s*|\s+(?:is|are|was|were)\s+/iu;

/**
 * A heading that names a thing's attribute, then its value after the colon: the colon stands for the copula
 * ("Ferry Skua crew change: Tuesdays", "三号仓温控：4 °C", examples in no case file). What follows up to a
 * bracket or the sentence's end is the value.
 */
function headed(text: string): [string, string, "heading"] | null {
  const m = /^([^:：\n]{2,48})[:：]\s*([^.;。；!?！？(（\n]+)/u.exec(withoutSpeaker(text).trim());
  return m ? [m[1] as string, m[2] as string, "heading"] : null;
}

/**
 * A heading gives the older statement's attribute a new value when it names that attribute in as many words or
 * fewer: the older may add the owner's class or a place after a preposition ("RV Tern's home berth in Hull is
 * quay 4" / "Tern home berth: quay 7"), never another noun of the attribute ("Tern's berth crew is 4" is the crew).
 * The values share no number or name.
 */
function headingGivesValue(n: [string, string, ...unknown[]], o: [string, string]): boolean {
  if (!OWNED_NOUN.test(o[0]) || PREDICATE_COMPLEMENT.test(o[1])) return false;
  const [pn, po] = [slotTokens(n[0]), slotTokens(o[0])];
  if ([...pn].filter((t) => !OWNER_WORDS.has(t)).length < 2 || ![...pn].every((t) => po.has(t))) return false;
  const possessive = /['’]s\b/u.exec(o[0]);
  const owner = possessive ? contentTokenSet(o[0].slice(0, possessive.index)) : new Set<string>();
  const place = /\s(?:in|at|on|near)\s+(.+)$/iu.exec(o[0]);
  const where = place ? contentTokenSet(place[1] as string) : new Set<string>();
  if (![...po].every((t) => pn.has(t) || owner.has(t) || where.has(t))) return false;
  const [vn, vo] = [valueTokens(n[1]), valueTokens(o[1])];
  return vn.size > 0 && vo.size > 0 && [...vo].every((t) => !vn.has(t)) && [...vn].every((t) => !vo.has(t));
}
const OWNED_NOUN = /的|['’]s\b|\b(?:of|for)\b/iu;
const PREDICATE_COMPLEMENT = /^(?:\w+ed|\w+en|in|on|at|by|with|from|to|under|being|not)\b|的[。.\s]*$|^(?:用|由|在|从|被|给|不|没)/iu;

/** A noun before the copula that names one of many: "one of the rules is …", "其中一条规则是…" hold no single value. */
const ONE_OF_MANY = /\b(?:one|some|another)\s+of\b|\b(?:a|an|another)\s+\w+\s*$|\b(?:rules?|requirements?|examples?|options?|tips?|notes?|reasons?)\s*$|之一|其中|一(?:个|条|项|种)|(?:规则|要求|原则|约定|例子|选项|原因|注意事项)\s*$/iu;

/**
 * The same statement up to its copula, then another complement: "A 的 B 是 C" / "A 的 B 是 D". What stands
 * before the copula names the attribute; what follows it in the first clause is its value, however many
 * words that takes, and a later clause only comments on it. Examples, in no case file: "门诊挂号系统的短信通道是
 * 运营商直连" / "门诊挂号系统的短信通道是第三方聚合平台，到达率更高"; "the fallback for declined card payments is
 * a manual invoice" / "the fallback for declined card payments is a bank transfer link". The older statement
 * says nothing else, so replacing it loses nothing but its value; a complement that keeps the old value
 * ("C 和 D") adds to it.
 */
function sameFrame(newer: string, older: string): boolean {
  if (clausesOf(older).length !== 1) return false;
  const split = (text: string): [string, string] | null => {
    const clause = (clausesOf(text)[0] ?? "").trim();
    const m = COPULA.exec(clause);
    return m && m.index > 0 ? [clause.slice(0, m.index), clause.slice(m.index + m[0].length)] : null;
  };
  const o = split(older);
  const n = split(newer) ?? headed(newer);
  if (!n || !o || ONE_OF_MANY.test(n[0]) || ONE_OF_MANY.test(o[0])) return false;
  if (n[2] === "heading") return headingGivesValue(n, o);
  // The attribute is a noun owned by the thing ("A 的 B", "A's B", "the B of A"); after a bare thing the predicate
  // names the attribute ("billing-worker is written in Go" / "… is owned by the Ledger team"), and so does a
  // "是…的" ("网关是用 Go 写的" / "网关是部署在 k8s 上的").
  if (!OWNED_NOUN.test(o[0]) || PREDICATE_COMPLEMENT.test(n[1]) || PREDICATE_COMPLEMENT.test(o[1])) return false;
  const [pn, po] = [slotTokens(n[0]), slotTokens(o[0])];
  const attribute = [...pn].filter((t) => !OWNER_WORDS.has(t));
  if (attribute.length < 2 || pn.size !== po.size || ![...pn].every((t) => po.has(t))) return false;
  const [vn, vo] = [slotTokens(n[1]), slotTokens(o[1])];
  return vn.size > 0 && vo.size > 0 && [...vo].every((t) => !vn.has(t));
}

/**
 * How many words differ, a count and the noun it counts being one. Examples, in no case file: "the
 * linter indents with 4 spaces" / "the linter indents with tabs"; "the job retries 5 times" / "the job retries forever".
 */
function wordsOfValue(text: string, differing: string[]): number {
  const words = (text.match(/[\p{L}\p{N}][\p{L}\p{N}._+#/-]*/gu) ?? []).map((w) => contentTokens(w)[0] ?? "");
  let counted = 0;
  for (const [i, w] of words.entries()) if (differing.includes(w) && /^\d+$/.test(words[i - 1] ?? "") && differing.includes(words[i - 1] as string)) counted++;
  return differing.length - counted;
}

/**
 * What differs is one phrase that opens with a value and may end in its head noun: "the Harlow depot"
 * / "the Kingsway yard", "Tuesday morning" / "Friday afternoon". A word before the value ("named Atlas",
 * "port 3000") says which attribute it is, so a phrase that opens with one is another slot; a qualifier
 * after a preposition ("Elastic in the EU region") may be one too.
 */
function isValuePhrase(text: string, differing: string[], values: Set<string>): boolean {
  if (differing.length > 4 || hasCjk(text)) return false;
  // The words as written, each with its content token (none for "the", "in"): the phrase is consecutive words,
  // so a qualifier joined by a preposition ("OpenSearch in the EU cluster") is not part of it.
  const words = (text.match(/[\p{L}\p{N}][\p{L}\p{N}._+#/-]*/gu) ?? []).map((w) => contentTokens(w)[0] ?? "");
  const first = words.findIndex((w) => differing.includes(w));
  if (first < 0) return false;
  const run = words.slice(first, first + differing.length);
  return run.every((w) => differing.includes(w)) && new Set(run).size === differing.length && (values.has(run[0] ?? "") || writtenAsName(text, run[0] ?? ""));
}

/** A word written with a capital or a digit wherever it stands, also first after a label's colon ("Venue: Morpeth Dock"). */
function writtenAsName(text: string, token: string): boolean {
  if (!/^[a-z0-9]/.test(token)) return false;
  const at = text.toLowerCase().search(new RegExp(String.raw`(?<![\p{L}\p{N}])${token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "u"));
  return at >= 0 && /[\p{Lu}\d]/u.test(text[at] ?? "");
}

/**
 * A weaker sign of one slot: the older statement differs only by its value, and the newer one puts
 * a phrase holding another value where it was ("the queue is hosted in Frankfurt" / "the queue is
 * hosted in Dublin's east region"). The phrase may carry a qualifier that makes it a second slot
 * ("opens at 9" / "opens at 10 on Saturdays"), so this is only evidence for reporting a possible
 * conflict, never for replacing.
 */
export function valueReplacedByPhrase(newer: string, older: string): boolean {
  const { common, onlyNew, onlyOld } = slotDiff(newer, older);
  if (onlyOld.length === 0 || common.some((t) => MANY_VALUED.has(t))) return false;
  if (common.filter((t) => !OWNER_WORDS.has(t)).length < 2 || common.length < onlyNew.length) return false;
  const values = new Set([...valueTokens(newer), ...valueTokens(older)]);
  return onlyOld.every((t) => values.has(t)) && onlyNew.some((t) => values.has(t));
}

/** Generic heads that label a status line without naming the task ("Update:", "Status:", "进展："). */
// A discourse opener before a colon introduces the message, whatever it is about: "quick one on the vans:", "FYI re payroll:".
const GENERIC_LABEL = /^(update|status|progress|note|fyi|heads up|report|quick update|(?:status|progress|weekly|daily|monthly)\s+(?:update|report)|更新|进展|进度|状态|汇报|备注|周报|日报|进度汇报)$|^(?:quick (?:one|note|q)|fyi|heads[- ]up|psa|btw|small thing)\s+(?:on|about|re|for|regarding)\b/i;

/** A count against its total, or a percentage: how far a task got. */
const COUNT_IN_LABEL = /(?<![\p{L}\d.-])\d+(?:\.\d+)?\s*(?:\/|／|of|out\s+of)\s*\d+(?![\d.])|(?<![\p{L}\d.-])\d+(?:\.\d+)?\s*%/giu;

/** The label of the task a status line is about, as written: the head before a colon, past a generic one ("Status report: …"). */
export function taskLabelText(text: string): string | null {
  let rest = text.trim();
  let reportHead = false;
  for (let i = 0; i < 2; i++) {
    // After the head of a report, a comma may close the task's label too: "Status report: payroll audit, 3 of 5 sites"
    // (after an opener such as "quick one on the vans:" what follows is the message, not a label).
    const m = rest.match(reportHead ? /^([^:：,，\n]{2,48})[:：,，]\s*(.+)$/su : /^([^:：\n]{2,48})[:：]\s*(.+)$/su);
    if (!m) return null;
    // A count against its total inside the label is how far the task got, not which task: "Hull blocks 12/40:
    // …", "外墙保温进度 60%：…" (examples in no case file) name the task without it.
    const label = (m[1] ?? "").replace(COUNT_IN_LABEL, " ").replace(/\s+/g, " ").trim();
    if (label.length === 0) return null;
    if (!GENERIC_LABEL.test(label)) return label;
    reportHead = /(?:report|update|周报|日报|汇报)$/iu.test(label);
    rest = m[2] ?? "";
  }
  return null;
}

/** The task a status line is about: the label before a colon ("Data import: 40% done" → "data import"), without words that only say it is a status. */
export function taskLabel(text: string): string[] | null {
  const label = taskLabelText(text);
  if (label === null) return null;
  const tokens = contentTokens(label).filter((t) => !GENERIC_LABEL.test(t));
  return tokens.length > 0 ? tokens : null;
}

/** A verb of state closing a label: "… rolled back", "… is paused", "… shipped". */
const STATE_AT_END = /\s+(?:(?:is|are|was|were|got|now|has\s+been)\s+)?(?:[a-z]{3,}(?<!e)ed|done|gone|live|on\s+hold|undone)(?:\s+(?:back|out|off|up|down|over|again))?$/i;

/**
 * The thing a label names when it ends in a verb of state, which says how that thing stands, not which task:
 * "Checkout redesign rolled back: …" is about "checkout redesign". Null when the label ends in no such verb.
 * Examples, in no case file: "Night-shift rota paused: …", "Mobile onboarding flow shipped: …".
 */
export function labelThing(text: string): string[] | null {
  const label = taskLabelText(text);
  if (label === null || hasCjk(label)) return null;
  const m = STATE_AT_END.exec(label);
  if (!m || m.index === 0) return null;
  const tokens = contentTokens(label.slice(0, m.index)).filter((t) => !GENERIC_LABEL.test(t));
  return tokens.length > 0 ? tokens : null;
}

/** Measure words that count units of work in Chinese: items, sheets, rows, weeks, chapters, episodes, rounds, rooms, batches, articles, pages, questions, courses, levels, matches, scenes, stops, floors, households. */
const COUNTED = "个张条项份台排周章节集期轮间栋套箱件单批篇页题道首部课门关场幕站层户";

// Within the count's clause any words may stand before the state; past a clause break only the state's own subject
// ("…, the move is done"), so a state denied there ("…, the install is not finished") is not reached.
const ALL_DONE_EN = /\ball\s+(?:of\s+)?(?:the\s+|our\s+)?(\d+)\b(?:[^.,;!?]{0,30}?|[^.!?]{0,60}?[,;—–-]\s*(?:the\s+)?[\p{L}-]+\s+(?:is\s+|are\s+|now\s+)?)\b(?:done|finished|complete[d]?|shipped|installed|migrated|moved|ported|sent|delivered|signed|in the can|wrapped|through)\b/iu;
// A count that reached its total by a verb of finishing, or of handing over ("40 箱全部发货了", "8 份合同都签完了").
const ALL_DONE_ZH = new RegExp(String.raw`(\d+)\s*[${COUNTED}][^，。,\d]{0,6}?(?:全部|都|全)(?:已经|已)?(?:[\u4e00-\u9fff]{0,2}?(?:完|好了|完成|搞定|到齐|结束)|(?:交付|交货|发货|送达|送到|到货|上线|发布|验收|签约|签完|付清|结清|交齐|收齐)(?:了|完毕))`, "u");

const DONE_AND_LEFT_ZH = new RegExp(String.raw`(?:累计|总共|已经?|完成了?|做完了?|弄完了?)\s*(\d+)\s*([${COUNTED}])[^。；;\d]{0,8}?(?:还剩下?|剩下?|还有|还差)\s*(\d+)\s*\2`, "u");
// The count done is said by any past participle, regular or not ("40 pallets wrapped", "9 legs flown", "12 rooms
// painted"); "left" ends its clause, not "3 left early".
const DONE_AND_LEFT_EN = /\b(\d+)\s+(?:[\p{L}-]+\s+){0,2}?(?:done|finished|complete|in|(?!(?:open|often|even|seven|eleven|when|then|urgent|current|recent|pending)\b)[\p{L}]{2,}(?:ed|en|wn|ne|nt|lt|ght|ung|un|ot|ut|id|ld))\b[^.;!?\d]{0,20}?\b(\d+)\s+(?:[\p{L}-]+\s+){0,2}?(?:left|to\s+go|remaining|outstanding)\b(?!\s+(?:early|late|for|at|on|in|with|the|after|before))/iu;

/** The total of a count done and a count left, or null. */
function doneAndLeft(text: string): number | null {
  const zh = DONE_AND_LEFT_ZH.exec(text);
  if (zh) return Number(zh[1]) + Number(zh[3]);
  const en = DONE_AND_LEFT_EN.exec(text);
  return en ? Number(en[1]) + Number(en[2]) : null;
}

/** A count against a total ("7 of 12 screens", "7/12", "完成 7/12"): progress of one task keeps its total and its unit. */
export function progressFrame(written: string): { total: string; frame: Set<string> } | null {
  // However the count is written: "eleven of the 30 crates", "四十排", "2,300 of 9,000".
  const text = withDigits(written).replace(/(\d),(?=\d{3}(?!\d))/g, "$1");
  // A few words may stand between the count and its total: "down to 87 unread, out of the 200 sent".
  const m =
    [...text.matchAll(/(\d+)\s*(?:of|out of|\/|／)\s*(?:the\s+)?(\d+)/gi)].find((c) => Number(c[1]) <= Number(c[2])) ??
    text.match(/(\d+)(?:\s+[\p{L}-]+){1,3}?,?\s+out of\s+(?:the\s+)?(?:same\s+|total\s+|whole\s+)?(\d+)/iu) ??
    text.match(new RegExp(String.raw`(\d+)\s*[${COUNTED}]?了?\s*[，,（(！!]?\s*(?:共|总共|一共)\s*(\d+)`, "u"));
  // Chinese puts the total first: "10 个类目迁完 7 个", "共 30 集剪完第 12 集".
  // Any measure word said after both numbers counts the same things: "300 卷里扫完了 45 卷", "60 棵树种了 18 棵".
  // A unit of time or measure said twice is a span ("3 月到 5 月", "2 度到 8 度"), not a count of its total.
  const sameWord = m ? null : text.match(/(\d+)\s*([\u4e00-\u9fff])[^，。,]{0,16}?(\d+)\s*\2/u);
  const totalFirst = m
    ? null
    : (text.match(new RegExp(String.raw`(\d+)\s*[${COUNTED}][^，。,]{0,16}?(\d+)\s*[${COUNTED}]`, "u")) ??
      (sameWord && !/[年月日号点时分秒天岁度元米克升]/u.test(sameWord[2] ?? "") ? [sameWord[0], sameWord[1] ?? "", sameWord[3] ?? ""] : null));
  // A total named as one ("一共 12 件，目前完成了 4 件") reaches over a clause break.
  const namedTotal = m || totalFirst ? null : text.match(new RegExp(String.raw`(?:共|总共|一共|总计)\s*(\d+)\s*([${COUNTED}])[^。；;]{0,16}?(\d+)\s*\2`, "u"));
  const first = totalFirst ?? (namedTotal ? [namedTotal[0], namedTotal[1] ?? "", namedTotal[3] ?? ""] : null);
  // A count never exceeds its total: "第2章 12 关全部做完" is chapter 2's twelve levels, not 12 of 2.
  const zh = first && Number(first[2]) <= Number(first[1]) ? first : null;
  // The count that reached its total says "all N … done": "all 40 pallets are delivered", "24 间全部刷完".
  const all = m || zh ? null : text.match(ALL_DONE_EN) ?? text.match(ALL_DONE_ZH);
  // A count done and a count left make the total: "累计 9 件，剩下 3 件", "14 crates packed, 6 to go".
  const split = m || zh || all ? null : doneAndLeft(text);
  if (!m && !zh && !all && split === null) return null;
  const total = m ? (m[2] ?? "") : zh ? (zh[1] ?? "") : all ? (all[1] ?? "") : String(split);
  const frame = new Set([...slotTokens(text)].filter((t) => !/\d/.test(t)));
  return { total, frame };
}

/**
 * Each statement names a config key or field the other does not (camelCase or snake_case words:
 * "maxPoolSize" / "minPoolSize", "RETRY_LIMIT" / "RETRY_DELAY"): two attributes, whatever else they share.
 */
export function keysDiffer(a: string, b: string): boolean {
  const ka = keysIn(a);
  const kb = keysIn(b);
  return [...ka].some((k) => !kb.has(k)) && [...kb].some((k) => !ka.has(k));
}

/** A code-like word given a number by a copula, an assignment or a verb of change; "PostgreSQL 15" is a name and its version. */
const KEY = /\b([A-Za-z]+(?:[a-z][A-Z]|_[A-Za-z])[A-Za-z0-9_]*)\s*(?:is|was|are|=|:|：|->|→|是|为|[\u4e00-\u9fff]{1,2}(?:到|成)了?|(?:is\s+)?(?:set|raised|lowered|bumped|changed)\s+to)\s*\d/g;

function keysIn(text: string): Set<string> {
  return new Set([...text.matchAll(KEY)].map((m) => (m[1] as string).toLowerCase()));
}

/**
 * Two status lines that open with the same thing, said in two words or more, are about one task:
 * a status line names its task first ("the warehouse move is half done" / "the warehouse move
 * finished on Monday", "发票系统对接完成一半" / "发票系统对接已上线"). A number right after the shared
 * opening names another task of a series ("phase 1 …" / "phase 2 …"), so those stay apart.
 */
export function sameLeadingThing(a: string, b: string): boolean {
  const ta = contentTokens(withoutSpeaker(a)).filter((t) => !OWNER_WORDS.has(t));
  const tb = contentTokens(withoutSpeaker(b)).filter((t) => !OWNER_WORDS.has(t));
  let n = 0;
  while (n < ta.length && n < tb.length && ta[n] === tb[n]) n++;
  if (n < 2) return false;
  return !/\d/.test(ta[n] ?? "") && !/\d/.test(tb[n] ?? "");
}

/**
 * Nouns that name an attribute rather than a thing: a subject ending in one names a slot by itself
 * ("invoice due date", "会员等级", "build cache location"), or the one who fills a role of it ("the kiosk
 * app's designer", "婚礼的摄影对接人": one person at a time), where a subject naming only a thing
 * ("the payments service", "用户的车") holds many attributes.
 */
const ATTRIBUTE_NOUN =
  /\b(location|place|path|url|address|host|port|endpoint|version|method|strategy|policy|format|style|convention|owner|maintainer|name|language|framework|provider|vendor|channel|schedule|time|day|date|deadline|cadence|frequency|limit|quota|size|timeout|target|default|setting|plan|tier|price|pricing|cost|currency|region|theme|font|status|level|mode|preference|choice|venue|meeting point|spot|composer|director|producer|designer|architect|lead|manager|coordinator|contact|assignee|reviewer|approver|sponsor|supplier|caterer|landlord|coach|tutor|doctor|dentist)s?\s*$|(对接人|联系人|主管|经理|设计师|导演|制片人?|作曲|教练|医生|房东|方法|地址|地点|集合点|起点|终点|位置|路径|端口|版本|策略|格式|风格|规范|负责人|名称|名字|语言|框架|渠道|时间|日期|期限|截止|频率|上限|价格|费用|套餐|主题|字体|状态|等级|模式|偏好|供应商|服务商)\s*$/iu;

/** The caller's subject names an attribute of a thing, so one subject is one slot. */
export function subjectNamesSlot(subject: string): boolean {
  return ATTRIBUTE_NOUN.test(subject.trim());
}

/** Scale words that belong to the number, not to its unit. */
const SCALE: Record<string, number> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, bn: 1e9, billion: 1e9, 千: 1e3, 万: 1e4, 亿: 1e8 };
const PRONOUN = /^(it|that|this|there|which|what|who|he|she|they|we|i|you|这|那|它)$/i;

/**
 * Nouns given a number by a copula or a colon, with the number's unit: "the budget is locked at £1.8m"
 * → budget: 1800000 £. Up to three words may stand between ("is now capped at", "现在控制在").
 */
function numberedNouns(text: string): Map<string, { value: number; unit: string }> {
  const out = new Map<string, { value: number; unit: string }>();
  // A bracketed gloss may follow the noun ("version (MSRV): 1.70"); a verb of setting links it by "to" or "at"
  // ("raised the timeout to 55 minutes", "set the dues at £35").
  const latin = /\b([\p{L}][\p{L}-]*)\)?(?:['’]s|\s+(?:is|are|was|were|to|at)|\s*[:=])(?:\s+[\p{Ll}]+){0,3}?\s*([£$€¥￥]?)\s?(\d[\d,]*(?:\.\d+)?)\s?(k|m|bn|million|billion|thousand)?\b\s*([\p{L}%]+)?/gu;
  const zh = /([\u4e00-\u9fff]{1,6}?|(?<![A-Za-z])[a-z][a-z-]*(?:\s+[a-z][a-z-]*)?\s*)(?:现在|目前|如今|已经|已|还是)?(?:是|为|[：:]|定在|定为|控制在|达到|涨到|降到|提到|调到)\s*([¥￥$€£]?)(\d[\d,]*(?:\.\d+)?)\s*(千|万|亿)?\s*([\u4e00-\u9fff%]|[A-Za-z]{1,4}\b)?/gu;
  // The number and its unit in front of the noun they measure: "a 120-character line limit", "a 30 Hz tick rate".
  // A hyphen or a unit abbreviated in capitals or two letters ties them; "3 Macs in the office" counts things.
  for (const m of text.matchAll(/\b(\d+(?:\.\d+)?)(?:-([a-z]+)|\s?([A-Z][A-Za-z]?|[a-z]{1,2}))\s+((?:[a-z]+\s+)?[a-z]+)\b/g)) {
    const head = contentTokens(m[4] ?? "").pop();
    const unit = contentTokens(m[2] ?? m[3] ?? "")[0] ?? "";
    if (head && unit && !out.has(head)) out.set(head, { value: Number(m[1]), unit });
  }
  for (const rule of [latin, zh]) {
    for (const m of text.matchAll(rule)) {
      const head = contentTokens(m[1] ?? "").pop();
      if (!head || PRONOUN.test(head) || /\d/.test(head)) continue;
      const value = Number((m[3] ?? "").replace(/,/g, "")) * (SCALE[(m[4] ?? "").toLowerCase()] ?? 1);
      // The unit is the currency sign, else the word after the number; a sign and no word are one unit.
      const unit = m[2] || (contentTokens(m[5] ?? "")[0] ?? "");
      if (Number.isFinite(value) && !out.has(head)) out.set(head, { value, unit });
    }
  }
  return out;
}

/**
 * Same noun given another number in the same unit: one attribute with a new value ("the budget is
 * locked at £1.8m" / "so the total budget is £2.1 million", "月租是4500元" / "月租现在是4800元").
 */
export function numberedAttribute(newer: string, older: string): SlotMatch | null {
  const a = numberedNouns(newer);
  const b = numberedNouns(older);
  for (const [noun, x] of a) {
    const y = b.get(noun);
    if (y && y.unit === x.unit && y.value !== x.value) return { common: [noun], onlyNew: [], onlyOld: [] };
  }
  return null;
}

/** Every quantity a statement gives: its number and its unit (a currency sign, else the word after the number). */
function quantities(text: string): Array<{ value: number; unit: string }> {
  const digits = withDigits(text);
  // A number with 号 before a noun says which one ("3号仓库", "2号线"): it names the thing, it measures nothing.
  const named = (m: RegExpMatchArray) => m[4] === "号" && /[\u4e00-\u9fff]/u.test(digits[(m.index ?? 0) + m[0].length] ?? "");
  return [...digits.matchAll(/([£$€¥￥])?\s?(\d[\d,]*(?:\.\d+)?)\s?(?:(k|m|bn|million|billion|thousand)\b)?(?![\d.,]*\d)\s*(?:-\s*)?([A-Za-z%]+|[\u4e00-\u9fff])?/gu)].filter((m) => !named(m)).map((m) => ({
    value: Number((m[2] as string).replace(/,/g, "")) * (SCALE[(m[3] ?? "").toLowerCase()] ?? 1),
    unit: m[1] ?? contentTokens(m[4] ?? "")[0] ?? "",
  }));
}

/**
 * One quantity in one unit, each side, of the same thing measured the same way however the words link them:
 * "Pepper weighs 4 kg" / "Pepper weighed in at 3.6 kg", "the hall seats 200 people" / "after the refit the hall
 * fits 240 people". The statements must share a word besides the thing (a name, or the words both open with) and
 * the unit: one thing has many measures in one unit (what a dog weighs and what it eats a day).
 */
export function quantityAttribute(newer: string, older: string): SlotMatch | null {
  const [a, b] = [quantities(newer), quantities(older)];
  if (a.length !== 1 || b.length !== 1) return null;
  const [x, y] = [a[0] as { value: number; unit: string }, b[0] as { value: number; unit: string }];
  if (x.unit === "" || x.unit !== y.unit || x.value === y.value) return null;
  const names = new Set([...`${newer} ${older}`.matchAll(/(?<=\s|^)\p{Lu}[\p{L}\d'’-]*/gu)].flatMap((m) => contentTokens(m[0])));
  const opening = sharedOpening(newer, older);
  const other = slotTokens(older);
  const common = [...slotTokens(newer)].filter((t) => other.has(t) && !names.has(t) && !opening.has(t) && !/\d/.test(t) && t !== x.unit && !OWNER_WORDS.has(t));
  return common.length > 0 ? { common, onlyNew: [String(x.value)], onlyOld: [String(y.value)] } : null;
}

/**
 * The words two statements both open with, the thing they are about ("Biscuit weighs…" / "Biscuit weighed in…",
 * "报修小程序后端…" / "报修小程序目前…"): Chinese from two characters, other text up to the last whole word.
 */
export function sharedOpening(first: string, second: string): Set<string> {
  const a = withoutSpeaker(first);
  const b = withoutSpeaker(second);
  let prefix = 0;
  while (prefix < Math.min(a.length, b.length) && a[prefix]?.toLowerCase() === b[prefix]?.toLowerCase()) prefix++;
  if (hasCjk(a)) return prefix >= 2 ? new Set(contentTokens(a.slice(0, prefix))) : new Set();
  return new Set(contentTokens(a.slice(0, prefix).replace(/\S*$/, "")));
}

/**
 * A bound on a thing: the most (or the least) it allows, in a unit. The bound word is the attribute and the
 * wording of the bound is not ("uploads are capped at 20 MB" / "max upload size: 50 MB", "单次请求最多 200 条" /
 * "单次请求上限：500 条"): one bound of one kind, in one unit, on the same thing is one slot.
 */
const UPPER_BOUND = /\b(?:max(?:imum)?|limit(?:s|ed)?|cap(?:s|ped)?|up\s+to|at\s+most|no\s+more\s+than|ceiling|allow(?:s|ed)?|permit(?:s|ted)?)\b|上限|最多|最大|不超过|封顶|允许/iu;
const LOWER_BOUND = /\b(?:min(?:imum)?|at\s+least|no\s+less\s+than|no\s+fewer\s+than)\b|下限|最少|最低|至少|不低于|不少于/iu;
const BOUND_WORD = /^(?:max|maximum|limit|limits|limited|cap|caps|capped|up|most|no|more|than|ceiling|allow|allows|allowed|permit|permits|permitted|允许|min|minimum|least|less|fewer|上限|最多|最大|不超过|封顶|下限|最少|最低|至少|不低于|不少于)$/u;

/**
 * Which bound a statement sets, if one: "upper" for a ceiling, "lower" for a floor, "none" for a plain value.
 * A bound and a plain value are two attributes of one thing: "the minimum Postgres we support is 13"
 * and "staging runs Postgres 16"; "单笔退款最多 500 元" and "这笔退款是 320 元" (examples in no case file).
 */
export function boundSaid(text: string): "upper" | "lower" | "none" | "both" {
  const upper = UPPER_BOUND.test(text);
  const lower = LOWER_BOUND.test(text);
  return upper && lower ? "both" : upper ? "upper" : lower ? "lower" : "none";
}

function boundOf(text: string): { kind: "upper" | "lower"; value: number; unit: string; thing: string[] } | null {
  const upper = UPPER_BOUND.test(text);
  if (upper === LOWER_BOUND.test(text)) return null;
  // A number joined to a name is part of the name ("Rover-2", "B12"), not a quantity.
  const quantities = [...text.matchAll(/(?<![\p{L}\p{N}_.]|[\p{L}\p{N}]-)(\d[\d,]*(?:\.\d+)?)\s*([A-Za-z%]+|[\u4e00-\u9fff])/gu)];
  if (quantities.length !== 1) return null;
  const q = quantities[0] as RegExpMatchArray;
  const unit = (q[2] as string).toLowerCase();
  // The thing bounded is named in the quantity's own clause: "the pump failed, so the tank's max fill is now 80 L".
  const at = q.index ?? 0;
  const start = Math.max(0, ...[...text.slice(0, at).matchAll(/[,;，；。]/g)].map((m) => (m.index ?? 0) + 1));
  const stop = /[,;，；。]/.exec(text.slice(at))?.index;
  const clause = text.slice(start, stop === undefined ? text.length : at + stop);
  const thing = contentTokens(clause.replace(q[0], " ")).filter((t) => !BOUND_WORD.test(t) && !UPPER_BOUND.test(t) && !LOWER_BOUND.test(t));
  return { kind: upper ? "upper" : "lower", value: Number((q[1] as string).replace(/,/g, "")), unit, thing };
}

export function boundedAttribute(newer: string, older: string): SlotMatch | null {
  const a = boundOf(newer);
  const b = boundOf(older);
  if (!a || !b || a.kind !== b.kind || a.unit !== b.unit || a.value === b.value) return null;
  const common = a.thing.filter((t) => b.thing.includes(t));
  return common.length >= 2 && common.length >= Math.max(a.thing.length, b.thing.length) * 0.6 ? { common, onlyNew: [String(a.value)], onlyOld: [String(b.value)] } : null;
}

/**
 * A name and the version given to it: "we deploy with Helm 3.14" → helm: 3.14, "Gradle 版本是 8.5" →
 * gradle: 8.5. A plain number after a lowercase word is an amount ("port 8080", "retries 5"), and a
 * number with a unit after it is a quantity, not a version.
 */
const VERSIONED =
  /(?<![\p{L}\p{N}_.-])([A-Za-z][A-Za-z0-9+#]*(?:-[A-Za-z][A-Za-z0-9+#]*)*)\s*(?:version\s+|[Vv]er\.?\s*|版本\s*号?\s*(?:是|为)?\s*[:：]?\s*|[:：]\s*|\s*(?:是|为|用的是)\s*)?([vV]?)(\d+(?:[.-]\d+){0,3})(?![\d.-]*\d)(?!\s*(?:%|(?:ms|s|secs?|seconds?|mins?|minutes?|hours?|hrs?|days?|weeks?|months?|years?|[kmgt]b|k|px|pt|users?|items?|requests?|rps|qps|times)\b|[个天秒分钟小时元块人台次年月日号点周倍岁]))/gu;

export function versionsNamed(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(VERSIONED)) {
    const name = (m[1] as string).toLowerCase();
    const version = m[3] as string;
    const looksVersioned = /[.-]/.test(version) || m[2] !== "" || /[A-Z0-9+#-]/.test(m[1] as string);
    if (!looksVersioned || contentTokens(name).length === 0 || /^(?:version|ver|v)$/i.test(name) || out.has(name)) continue;
    out.set(name, version);
  }
  return out;
}

/** Verbs that tie a thing to the tool or platform it is made or run with; an attribute's own noun: they name no other thing. */
const MADE_WITH = new Set(
  "build built builds compiled compile written write based powered run runs running ran use uses used using target targets targeting develop developed deployed version 跑 基于 编译 开发 运行 使用 写 部署 版本"
    .split(/\s+/)
    .flatMap((w) => contentTokens(w)),
);

/**
 * The same name given another version, where every other word of the older statement is in the newer or only
 * ties the thing to its tool: "the report service is built on Java 11" / "report service: Java 17 now" are one
 * slot, while "staging runs Kubernetes 1.27" / "prod runs Kubernetes 1.29" name two things.
 */
export function versionedSlot(newer: string, older: string): SlotMatch | null {
  const v = versionReading(newer, older);
  return v === null || v === "two things" ? null : v;
}

/**
 * The words only one side says are Chinese on one side and Latin on the other: the rest of the statement is said
 * in two languages, and words cannot tell a modifier from its translation ("Android 8 最低支持" / "minimum Android
 * version is Android 10"; "Node 20 是构建机的版本" / "build box runs Node 22 now").
 */
function inOtherLanguages(a: string[], b: string[]): boolean {
  const cjk = (ts: string[]) => ts.every((t) => /^[\u4e00-\u9fff]+$/u.test(t));
  const latin = (ts: string[]) => ts.every((t) => !/[\u4e00-\u9fff]/u.test(t));
  return (cjk(a) && latin(b)) || (latin(a) && cjk(b));
}

/** The same name given another version on two things: "staging runs Kubernetes 1.27" / "bumped prod to Kubernetes 1.29". */
export function versionsOfTwoThings(newer: string, older: string): boolean {
  return versionReading(newer, older) === "two things";
}

function versionReading(newer: string, older: string): SlotMatch | "two things" | null {
  let two = false;
  const b = versionsNamed(older);
  // The newer statement is read in the clause that gives the version: a reason after it names no other thing
  // ("bumped it to 1.74 because the new parser needs it"). A colon stays inside: "Node 版本：20.11".
  for (const clause of newer.split(/[,;，；。!?！？]+|\.(?=\s|$)|\s+(?=(?:so|because|since|but)\b)/i)) {
    for (const [name, version] of versionsNamed(clause)) {
      const was = b.get(name);
      if (was === undefined || was === version) continue;
      const nameTokens = new Set(contentTokens(name));
      const other = (own: Set<string>, theirs: Set<string>) => [...own].filter((t) => !theirs.has(t) && !nameTokens.has(t) && !/^v?\d+$/.test(t) && !MADE_WITH.has(t) && !WHEN_WORDS.has(t));
      const mine = slotTokens(clause);
      const theirs = slotTokens(older);
      const [onlyMine, onlyTheirs] = [other(mine, theirs), other(theirs, mine)];
      if (onlyMine.length === 0 || onlyTheirs.length === 0 || inOtherLanguages(onlyMine, onlyTheirs)) return { common: [name, "version"], onlyNew: [version], onlyOld: [was] };
      if (modifiersDiffer(clause, older)) two = true;
    }
  }
  return two ? "two things" : null;
}

/**
 * Two things of one kind: the same noun after a different word on each side, a word the other side never says
 * ("the staging cluster" / "the prod cluster", "测试环境" / "生产环境").
 */
export function modifiersDiffer(a: string, b: string): boolean {
  const ta = contentTokens(a);
  const tb = contentTokens(b);
  const setA = new Set(ta);
  const setB = new Set(tb);
  // In English a modifier stands right before its noun: "moved the project to Godot" puts no "project" on Godot.
  const before = (text: string, tokens: string[]): Map<string, string> => {
    const out = new Map<string, string>();
    if (hasCjk(text)) {
      tokens.forEach((t, i) => i > 0 && !out.has(t) && out.set(t, tokens[i - 1] as string));
      return out;
    }
    const words = text.split(/[^\p{L}\p{N}'’-]+/u).map((w) => contentTokens(w));
    words.forEach((w, i) => {
      const prev = words[i - 1];
      if (i > 0 && w.length === 1 && prev?.length === 1 && !out.has(w[0] as string)) out.set(w[0] as string, prev[0] as string);
    });
    return out;
  };
  const pa = before(a, ta);
  const pb = before(b, tb);
  return [...pa].some(([head, m]) => {
    const n = pb.get(head);
    return n !== undefined && n !== m && !setB.has(m) && !setA.has(n) && !/\d/.test(m + n);
  });
}

/**
 * Two things of one kind, each with its own value of one attribute: the statements open with a different name,
 * go on in the same words, and differ again further on ("the Oslo office closes at 17:00" / "the Lyon office
 * closes at 18:00", "东门的开放时间是8点" / "西门的开放时间是9点"). A statement that differs in one place only
 * gives the same thing a new value, or a role a new holder ("Sam is on call this week" / "Ana is on call this
 * week"). At most one shared class word may come before the names ("the ferry Skua" / "the ferry Tern"); a
 * number there is a value (progress, a count), not a name.
 */
export function twoNamedThings(a: string, b: string): boolean {
  // An aside in brackets after a name says where or what it is ("露娜（5 号栏）"), not how the sentence goes on.
  const words = (text: string) => contentTokens(withoutSpeaker(text).replace(/[(（][^()（）]{0,40}[)）]/gu, " ")).filter((t) => !OWNER_WORDS.has(t));
  const [ta, tb] = [words(a), words(b)];
  const [setA, setB] = [new Set(ta), new Set(tb)];
  let p = 0;
  while (p < ta.length && p < tb.length && ta[p] === tb[p]) p++;
  if (p > 1) return false;
  // In a language with capitals a name is written with one: "Greenleaf rang, they bumped …" opens with a verb, not a name.
  // An English sentence's first word has a capital whatever it is ("Bumped the limit …"): there a name shows by its
  // "'s" or by a second capitalised word after it ("Lin's slot …", "Kingston Black …"). In Chinese text a Latin word is a name.
  const named = (text: string): Set<string> =>
    new Set(
      [...text.matchAll(/\p{Lu}[\p{L}\d'’-]*/gu)]
        .filter((m) => hasCjk(text) || /\S/u.test(text.slice(0, m.index)) || /^\p{L}+['’]s$/u.test(m[0]) || /^\s+\p{Lu}/u.test(text.slice((m.index ?? 0) + m[0].length)))
        .flatMap((m) => contentTokens(m[0])),
    );
  // A name that ends a heading before a colon ("Marco: …" / "Priya: …", "Per Ana (ops): …", "Staging: …") may be who
  // said it as well as what it is about: the rest of the reading decides.
  const heading = (text: string): string[] | null => {
    const h = /^\s*([^:：]{1,40}?)\s*(?:[(（][^)）]*[)）])?\s*[:：]/u.exec(withoutSpeaker(text))?.[1];
    return h === undefined ? null : contentTokens(h);
  };
  const [ha, hb] = [heading(a), heading(b)];
  // The heading is the name and what the other heading says too ("陈工：" / "王工：", a notice word such as "调整：").
  const isHeading = (h: string[] | null, span: string[], other: string[] | null): boolean =>
    h !== null && span.every((t) => h.includes(t)) && h.every((t) => span.includes(t) || (other ?? []).includes(t));
  const [capsA, capsB] = [named(a), named(b)];
  const name = (span: string[], other: Set<string>, caps: Set<string>) =>
    span.length > 0 &&
    !CJK_NOT_A_NAME.test(span.join("")) &&
    span.every((t) => !other.has(t) && !/\d/.test(t) && !WHEN_WORDS.has(t) && (/^[\u4e00-\u9fff]+$/u.test(t) || caps.has(t)));
  // Chinese is written without spaces: a name with no 的 after it runs into the next word, and the pair of characters
  // across the join ("娜每" in "露娜每顿") belongs to neither.
  const after = (span: string[], rest: string[]): string[] => {
    const [first, last] = [rest[0], span[span.length - 1]];
    return first !== undefined && last !== undefined && /^[\u4e00-\u9fff]{2}$/u.test(first) && last.endsWith(first[0] as string) ? rest.slice(1) : rest;
  };
  // A name and its translation or abbreviation in the other script are one thing ("长距离课" / "LSD").
  const script = (span: string[]) => (span.every((t) => /^[\u4e00-\u9fff]+$/u.test(t)) ? "cjk" : span.every((t) => !/[\u4e00-\u9fff]/u.test(t)) ? "latin" : "mixed");
  for (let i = 1; i <= 6; i++) {
    for (let j = 1; j <= 6; j++) {
      if (!name(ta.slice(p, p + i), setB, capsA) || !name(tb.slice(p, p + j), setA, capsB) || [script(ta.slice(p, p + i)), script(tb.slice(p, p + j))].sort().join() === "cjk,latin") continue;
      const [restA, restB] = [after(ta.slice(p, p + i), ta.slice(p + i)), after(tb.slice(p, p + j), tb.slice(p + j))];
      if (restA[0] === undefined || restA[0] !== restB[0]) continue;
      const shared = restA.filter((t) => restB.includes(t)).length;
      const [ra, rb] = [new Set(restA), new Set(restB)];
      const [spanA, spanB] = [ta.slice(p, ta.length - restA.length), tb.slice(p, tb.length - restB.length)];
      if (shared >= 2 && restA.some((t) => !rb.has(t)) && restB.some((t) => !ra.has(t))) return !(isHeading(ha, spanA, hb) || isHeading(hb, spanB, ha));
    }
  }
  // In Chinese a name may come after where the thing is kept or whose it is ("2 号棚的阿福" / "小白（6 号棚）…"): the
  // openings before the first words both go on with end in a short name each (after the last 的, without the aside),
  // and the two names share no character.
  if (!hasCjk(a) || !hasCjk(b)) return false;
  const plain = (text: string) => withoutSpeaker(text).replace(/[(（][^()（）]{0,40}[)）]/gu, " ");
  const head = (text: string, rest: string[]): string | null => {
    const at = rest[0] === undefined ? -1 : plain(text).indexOf(rest[0]);
    const h = at <= 0 ? "" : (plain(text).slice(0, at).split("的").pop() ?? "").trim();
    return /^[\u4e00-\u9fff]{2,4}$/u.test(h) && !CJK_NOT_A_NAME.test(h) && !WHEN_WORDS.has(h) ? h : null;
  };
  for (let i = 1; i <= 16; i++) {
    for (let j = 1; j <= 16; j++) {
      const [restA, restB] = [after(ta.slice(0, i), ta.slice(i)), after(tb.slice(0, j), tb.slice(j))];
      if (restA[0] === undefined || restA[0] !== restB[0] || !/^[\u4e00-\u9fff]+$/u.test(restA[0])) continue;
      const [ra, rb] = [new Set(restA), new Set(restB)];
      if (restA.filter((t) => rb.has(t)).length < 2 || !restA.some((t) => !rb.has(t)) || !restB.some((t) => !ra.has(t))) return false;
      const [na, nb] = [head(a, restA), head(b, restB)];
      return na !== null && nb !== null && ![...na].some((ch) => nb.includes(ch));
    }
  }
  return false;
}

/**
 * The words of the codes a statement names: an identifier of letters and digits joined by a hyphen names a unit
 * ("rack C7-14", "叉车 FL-3"), not a value of one of its attributes.
 */
export function codeWords(text: string): Set<string> {
  return new Set([...text.matchAll(/(?<![\p{L}\d])(?=[\p{L}-]*\p{L})(?=[\p{L}-]*\d)[\p{L}\d]+(?:-[\p{L}\d]+)+(?![\p{L}\d])/gu)].flatMap((m) => contentTokens(m[0])));
}

/**
 * Words that open a Chinese statement without naming a thing: how usual or how exact it is, a change of value, what
 * it goes by, or from when ("平时每车装 40 箱", "统一按 8 折算", "秋季学期起每班 30 人"). A statement opening with one
 * gives its thing a value; it names no second thing.
 */
const CJK_NOT_A_NAME = /^(?:平时|平常|平日|通常|一般|大概|大约|差不多|统一|一律|如今|眼下|当前|仍然|依然|还是|全部|始终|一直|暂时|临时|改|换|调|降|涨|加|减|按|依|照)|(?:起|开始|以后|之后|后|以来)$/u;

/** When something happened is no thing of its own: "this morning", "last week", "上周". */
const WHEN_WORDS = new Set(
  "today yesterday tonight morning afternoon evening night week weekend month year last ago earlier recently 今天 昨天 前天 上周 本周 早上 上午 下午 晚上 刚才 最近"
    .split(/\s+/)
    .flatMap((w) => contentTokens(w)),
);

/**
 * Who someone is to the person before them, said before their name: "his son Peter", "她女儿王静". The name after it is
 * the holder. Kinship and work relations are a closed class.
 */
const KIN_EN = String.raw`(?:son|daughter|wife|husband|partner|brother|sister|father|mother|dad|mum|mom|assistant|colleague|deputy|secretary)`;
const KIN_ZH = "(?:儿子|女儿|太太|妻子|老婆|丈夫|老公|爱人|父亲|母亲|爸爸|妈妈|哥哥|姐姐|弟弟|妹妹|助理|同事|秘书)";

/** A person's name: capitalised words in English, two or three characters or a nickname (阿/小/老 + one) in Chinese. */
const PERSON_EN = String.raw`((?:(?:his|her|their|my|our)\s+${KIN_EN}\s+)?(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?(?!(?:The|We|It|This|That|Our|They|He|She|I|You|Nobody|Someone|Everyone)\b)[A-Z][\p{Ll}'-]+(?:\s+[A-Z][\p{Ll}'-]+)?)`;
const PERSON_ZH = String.raw`((?:[他她我你]的?${KIN_ZH})?(?![我你他她它我们大家团队])[\u4e00-\u9fff]{2,3}?)`;

/** "Is" between a role and its holder: the verb, or a colon standing for it ("Release captain: Ines"). */
const COPULA_EN = String.raw`(?:\s+(?:is|are)\s+(?:now\s+|currently\s+|still\s+)?|\s*[:：]\s*)`;
/** What a term opens with after "for": a year or "the coming…" ("captain for 2027" holds the role in 2027; "captain for the away team" holds it for a thing). */
const TERM_START = String.raw`\d{4}\b|(?:the\s+)?(?:coming|next|upcoming)\s`;
/** When a role is held, between the role and its holder: "this season", "for 2027", "next term". */
const TERM_EN = String.raw`(?:\s+(?:(?:this|next|for\s+(?:the\s+)?(?:coming\s+|next\s+|upcoming\s+)?)\s*(?:season|year|term|semester|quarter|month|week|sprint|tour|cycle|rotation)|(?:for|in)\s+\d{4}(?:[-/–]\d{2,4})?(?:\s+season)?))?`;
/** The earlier holder in a Chinese hand-over ("从老陈换成了…"). */
const PERSON_ZH_FROM = String.raw`(?:[\u4e00-\u9fff]{2,3}?)`;
/** A starting date before the role ("从下月起…", "自 5 月 2 日起…"): when, not what is held. */
const SINCE_ZH = String.raw`(?:(?:从|自)[^，。,；;]{1,12}?起\s*)?`;

/**
 * A role named by an agent noun: an English noun with an agent suffix or a noun of leading ("reviewer",
 * "coordinator", "lead", "head", "DRI"), a Chinese noun ending in a suffix of a person's role (审核人, 组长,
 * 架构师, 专员) or one of the role nouns without one (经理, 主管, 调度, 主席, 主任). A role held by a person is a
 * slot: one person holds it at a time.
 */
const ROLE_EN = String.raw`(?:[A-Za-z][\w-]*(?:er|or|ist|ant)|[A-Za-z]+person|lead|head|contact|admin|DRI|PM|captain|champion|chair|point\s+of\s+contact)`;
const ROLE_ZH = String.raw`(?:[\u4e00-\u9fff](?:人|长|师|员|官)|经理|主管|总监|负责人|调度|主席|主任|主编|书记|总裁|会计|owner|PM|DRI)`;
/** Kinship before a name names no one by itself ("his son Peter" is Peter). */
const KIN_BEFORE_NAME = new RegExp(String.raw`^(?:(?:his|her|their|my|our)\s+${KIN_EN}\s+|[他她我你]的?${KIN_ZH})`, "i");
/** A title before a name, which names no one by itself ("Dr. Reyes" is Reyes). */
const TITLE = /^(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+/i;

/**
 * The kinds of statement that say who is responsible for a thing, each capturing the thing and the person
 * (group order: thing, person, or person, thing — see RESPONSIBLE). Examples, in no case file:
 * "the release train is run by Dana", "Ilya took over the fraud rules", "结算模块以后归老钱管", "报表的对接人是陈晨".
 */
const RESPONSIBLE: Array<{ rule: RegExp; personFirst: boolean }> = [
  { rule: new RegExp(String.raw`^(?:the\s+)?(.+?)\s+(?:is|are)\s+(?:now\s+|currently\s+|still\s+)?(?:owned|maintained|run|led|looked after|managed|handled)\s+by\s+${PERSON_EN}`, "u"), personFirst: false },
  { rule: new RegExp(String.raw`^(?:the\s+)?(?:owner|maintainer|lead|point of contact|contact)\s+(?:of|for)\s+(?:the\s+)?(.+?)\s+is\s+(?:now\s+)?${PERSON_EN}`, "u"), personFirst: false },
  { rule: new RegExp(String.raw`^(?:the\s+)?(.+?)['’]s\s+(?:owner|maintainer|lead)\s+is\s+(?:now\s+)?${PERSON_EN}`, "u"), personFirst: false },
  { rule: new RegExp(String.raw`^${PERSON_EN}\s+(?:now\s+|still\s+|will\s+)?(?:owns|maintains|leads|is\s+responsible\s+for|is\s+in\s+charge\s+of|looks\s+after|(?:is|are)\s+taking\s+over|takes\s+over|took\s+over|has\s+taken\s+over|take\s+over)\s+(?:the\s+)?(.+?)(?=\s+(?:from|starting|as\s+of|since|until|for\s+now)\b|[.,;!]|$)`, "u"), personFirst: true },
  { rule: new RegExp(String.raw`^${SINCE_ZH}([^，。,；;]+?的?(?:负责人|对接人|维护人|主负责人|owner))(?:现在|以后|目前|已经)?(?:从${PERSON_ZH_FROM})?(?:是|为|换成了?|改成了?|变成了?|改为|[:：]\s*)${PERSON_ZH}(?:[，。,；;！!了\s]|$)`, "u"), personFirst: false },
  { rule: new RegExp(String.raw`^([^，。,；;]+?)(?:以后|现在|目前|今后|从[^，。]{1,6}起|开始)?(?:由|归)${PERSON_ZH}(?:来)?(?:负责|管|维护|跟进|对接|接手)`, "u"), personFirst: false },
  // Any role named by an agent noun, held by a person: the role's words are part of what is held ("the Orbit
  // release manager is Greta", "the on-call reviewer for billing is Sam", "Greta is now the Orbit release manager",
  // "合同审核人是何静", "前端组长换成了孙悦"): two roles of one thing are two slots.
  { rule: new RegExp(String.raw`^(?:[Tt]he\s+|[Oo]ur\s+)?(.*?\b${ROLE_EN}(?:\s+(?:for|of|on)\s+(?!${TERM_START})(?:the\s+)?[^,.;!:：]+?)?)${TERM_EN}${COPULA_EN}${PERSON_EN}(?=\s*(?:[.,;!()]|$)|\s+(?:now|from|since|starting|as\s+of)\b)`, "u"), personFirst: false },
  { rule: new RegExp(String.raw`^(?:[Tt]he\s+|[Oo]ur\s+)?(${ROLE_EN}(?:\s+(?:for|of|on)\s+(?!${TERM_START})(?:the\s+)?[^,.;!:：]+?))${TERM_EN}${COPULA_EN}${PERSON_EN}(?=\s*(?:[.,;!()]|$)|\s+(?:now|from|since|starting|as\s+of)\b)`, "u"), personFirst: false },
  { rule: new RegExp(String.raw`^${PERSON_EN}\s+(?:is|will\s+be|has\s+become|became)\s+(?:now\s+)?(?:the\s+|our\s+|(?:the\s+)?(?:acting|interim)\s+)(.*?\b${ROLE_EN}(?:\s+(?:for|of|on)\s+(?:the\s+)?[^,.;!]+?)?)\s*(?:[.,;!]|$)`, "u"), personFirst: true },
  { rule: new RegExp(String.raw`^${SINCE_ZH}([^，。,；;:：]*?${ROLE_ZH})(?:现在|以后|目前|今后|已经)?(?:从${PERSON_ZH_FROM})?(?:是|为|换成了?|改成了?|变成了?|改为|换为|[:：]\s*)${PERSON_ZH}(?:[，。,；;！!了\s]|$)`, "u"), personFirst: false },
  // The holder introduced by 由 after the role, whatever the verb ("质检组长由周倩暂代", "运维主管由老马兼任").
  { rule: new RegExp(String.raw`^${SINCE_ZH}([^，。,；;:：]*?${ROLE_ZH})(?:现在|以后|目前|今后|暂时|已经)?由${PERSON_ZH}[\u4e00-\u9fff]{1,2}(?:[，。,；;！!了\s]|$)`, "u"), personFirst: false },
];

/**
 * Who is responsible for a thing is one slot: one person at a time, however it is said ("X is owned by A" /
 * "B took over X", "X 的负责人是 A" / "X 以后归 B 管"): a slot when both say it of the same thing with two
 * people, "two things" when both say it of different things, else null. Each side is parsed once.
 */
export function responsibilityReading(newer: string, older: string): SlotMatch | "two things" | null {
  const a = responsibility(withoutSpeaker(newer));
  const b = responsibility(withoutSpeaker(older));
  if (!a || !b) return null;
  if (!sameThing(a.thing, b.thing)) return "two things";
  return a.person === b.person ? null : { common: a.thing.filter((t) => b.thing.includes(t)), onlyNew: [a.person], onlyOld: [b.person] };
}

/** Words for being responsible in general: the thing is what tells two such slots apart ("发票服务负责人" / "报销服务负责人"). */
const GENERIC_RESPONSIBILITY = /^(?:负责人|负责|主负责人|人员|owner|owners|lead|leads)$/iu;
/** A word that names a particular role (an agent noun): two different ones are two slots of one thing ("对接人" / "负责人"). */
const ROLE_WORD = new RegExp(String.raw`^(?:[\u4e00-\u9fff]*${ROLE_ZH}|${ROLE_EN})$`, "iu");

function sameThing(a: string[], b: string[]): boolean {
  // A lone ideograph is a suffix more often than a word ("审核人" / "归档人" share only 人).
  const words = (ts: string[]) => ts.filter((t) => !/^[\u4e00-\u9fff]$/.test(t) && !GENERIC_RESPONSIBILITY.test(t));
  // Roles each side names that the other does not, the general "in charge" one included: two different ones are two slots.
  const roles = (ts: string[]) => new Set(ts.flatMap((t) => (GENERIC_RESPONSIBILITY.test(t) ? ["(in charge)"] : ROLE_WORD.test(t) ? [t] : [])));
  const [ra, rb] = [roles(a), roles(b)];
  if ([...ra].some((r) => !rb.has(r)) && [...rb].some((r) => !ra.has(r))) return false;
  [a, b] = [words(a), words(b)];
  const common = a.filter((t) => b.includes(t));
  // One side may name the thing in short, its words all in the other's ("总协调人" for "病房志愿者总协调人").
  const shorter = Math.min(a.length, b.length);
  return common.length > 0 && (common.length >= Math.max(a.length, b.length) * 0.6 || (shorter >= 2 && common.length === shorter));
}

/** The first clause that says who is responsible for what: a reason or a hand-over may come first ("Tomas moved teams; …", "赵磊休假了，…"). */
function responsibility(text: string): { thing: string[]; person: string } | null {
  // One person succeeding another, then the duty: "孙倩接替赵磊，负责…的值班", "老周接手小王，管…".
  const succeeds = text.match(new RegExp(String.raw`^${PERSON_ZH}(?:接替|接手|替换|顶替|接过)了?${PERSON_ZH_FROM}(?:的(?:工作|位置|班))?[，,]?\s*(?:负责|担任|做|接管|管|来管)了?([^，。；;！!]+)`, "u"));
  if (succeeds?.[1] && succeeds[2]) {
    const tokens = contentTokens(succeeds[2]);
    if (tokens.length > 0) return { thing: tokens, person: succeeds[1].toLowerCase() };
  }
  // A title's full stop ends no clause: "Dr. Reyes is acting product owner".
  for (const clause of text.split(/[;；，,。]|(?<!\b(?:Dr|Mr|Mrs|Ms|Prof|St)\.)(?<=\.)\s+|\s+[—–-]\s+/)) {
    for (const { rule, personFirst } of RESPONSIBLE) {
      const m = clause.trim().match(rule);
      if (!m) continue;
      const [thing, person] = personFirst ? [m[2], m[1]] : [m[1], m[2]];
      const tokens = contentTokens((thing ?? "").replace(/^(?:the|our)\s+/i, ""));
      if (tokens.length > 0 && person) return { thing: tokens, person: person.replace(KIN_BEFORE_NAME, "").replace(TITLE, "").toLowerCase() };
    }
  }
  return null;
}
