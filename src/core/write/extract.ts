import { resolveConfig, type EngineConfig } from "../config.js";
import type { MemoryType } from "../model/memory.js";
import { spokenBy } from "../model/turnText.js";
import { cjkRatio } from "../text/cjk.js";
import { splitSentences } from "../text/sentences.js";
import { classifyType, inferSubject, isHedged } from "./classify.js";
import { REDACTION_MARK } from "../guard/index.js";
import { standaloneChinese, standaloneEnglish } from "./standalone.js";
import { parseValidUntil } from "./validity.js";
import { announcesChange, correctsEarlier, oldValues } from "./slot.js";

export interface ExtractedItem {
  content: string;
  type: MemoryType;
  subject: string;
  confidence: number;
  validUntil: number | null;
  /** The speaker opened it as one more point ("also, …", "另外…"): the word is left out, the addition is not. */
  addition?: boolean;
}

export type RuleThresholds = EngineConfig["write"]["rules"];

export interface ExtractOptions {
  now: number;
  speaker: string | null;
  maxMemoryChars: number;
  defaultConfidence: number;
  /** The engine's config.write.rules; a caller without an engine (a benchmark, a test) gets their defaults. */
  rules?: RuleThresholds;
}

const DEFAULT_RULES: RuleThresholds = resolveConfig().write.rules;

/** Words that close a conversation before the speaker leaves it: "好了", "不说了", "先这样", "那我". */
const LEAVE_LEAD_ZH = String.raw`(?:(?:好啦|好了|好嘞|好哒|得嘞|好|那我|那|行|先这样|就这样|不说了|不聊了|回头聊)[，,\s]*)*`;
/**
 * Leaving for a call, a meeting, a meal or a rest, said as the sentence after at most a closing word ("行，不聊了我得去接个电话",
 * "那我先去开会了哈"), or as the last clause after a short remark of what called the speaker away ("外卖到了，马上回来");
 * a meeting that is part of a schedule is a fact ("每周一要开个会对排班"). Leaving for the day is said with "先"/"得"
 * before the verb ("我得先撤了", "那咱先收工"); "下班前交周报" is a deadline, not a goodbye.
 */
const LEAVING_CORE_ZH = String.raw`(?:(?:我们?|咱们?)?(?:(?:得|要|这就|马上)先?|先)(?:下班|收工|撤|回家)|(?:我们?)?(?:先|得|要|这就|马上)?(?:去|要)(?:开|接|打)(?:个|一个)?(?:会|电话)|(?:我们?)?(?:先|得|要|这就|马上)?去(?:吃饭|午休|休息|睡(?:觉|了)?|上课|洗澡|健身)|等我[一二两三五十\d]*(?:下|会|分钟)|我?(?:马上|一会儿?|待会儿?)(?:就)?回来)(?:了|啦|咯|喽|哈|去了)*`;
const LEAVING_ZH = new RegExp(String.raw`^${LEAVE_LEAD_ZH}${LEAVING_CORE_ZH}(?=$|[，,。！？!?\s~～]|\p{Extended_Pictographic})|^[^，,。！？!?\dA-Za-z]{1,8}[，,]\s*${LEAVE_LEAD_ZH}${LEAVING_CORE_ZH}[\s\p{P}\p{S}\p{Extended_Pictographic}]*$`, "u");

/**
 * Encouragement closing a short line is a cheer for the moment, not a fact: "new sprint, let's go team!",
 * "上线前最后一周，大家冲鸭". A closed class of cheers.
 */
const CHEER_TAIL = /(?:^|[\s，,。！!～~]|(?<=[\u4e00-\u9fff]))(?:(?:大家|一起|咱们|我们)?(?:加油|冲鸭|冲冲冲|干就完了)(?:啊|呀|哦|吧)?|let'?s\s+(?:go|do\s+this|crush\s+it|rock(?:\s+it)?)(?:\s+(?:team|folks|everyone|guys|y'?all))?|go\s+team|you\s+(?:got|can\s+do)\s+this)[\s\p{P}\p{S}\p{Extended_Pictographic}～~]*$/iu;
/** A cheer with little before it, a greeting aside ("大家好呀～新项目大家加油！", "hi all, new sprint, let's go!"). */
function cheerOnly(s: string): boolean {
  const rest = s.replace(/^(?:大家好|各位好|hi all|hey all|hello everyone|morning all)[呀啊哦～~!！,，\s]*/i, "");
  const m = CHEER_TAIL.exec(rest);
  if (m === null) return false;
  const before = rest.slice(0, m.index).trim();
  const little = cjkRatio(before) > 0.5 ? [...before].length <= 6 : before.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length <= 2;
  return little && !carriesHardValue(before);
}

/** Goodbye closing a line, as chat writes it: "88", "886", "拜拜", "bye". */
const FAREWELL_TAIL = /(?:^|[\s，,。！!～~])(?:88|886|8{4}|拜拜|拜了|bye(?:\s*bye)?)[\s\p{P}\p{S}\p{Extended_Pictographic}～~]*$/iu;
/** A verdict in Chinese internet slang closing a line: "yyds" (the greatest), "绝绝子", "xswl", "awsl", "666". A closed class. */
const SLANG_VERDICT_TAIL = /(?:^|[\s，,。！!～~]|(?<=[\u4e00-\u9fff]))(?:yyds|绝绝子|xswl|awsl|太香了|香疯了|无敌了|牛[逼批哇]了?|6{3,})[\s\p{P}\p{S}\p{Extended_Pictographic}～~]*$/iu;
/** What a line says besides its closing tail is short and holds no value: the tail is what it says. */
function shortBeside(s: string, tail: RegExp): boolean {
  const m = tail.exec(s);
  if (m === null) return false;
  const rest = s.slice(0, m.index).trim();
  return [...rest].length <= 12 && !carriesHardValue(rest);
}

/** A value someone may look up later: a number, a name written with a capital inside the sentence, a code-like word. */
function carriesValue(s: string): boolean {
  return /\d|(?<=\s)[A-Z][A-Za-z0-9]*|[A-Za-z]+[_./-][A-Za-z0-9]/.test(s.slice(1));
}

/**
 * A value a groan cannot be about: a number, a version, a path. A name is not enough, since a groan names the day
 * or the tool it is about as often as a fact does ("ugh, Monday again", "ugh this VPN").
 */
function carriesHardValue(s: string): boolean {
  return /\d|[A-Za-z]+[_./-][A-Za-z0-9]/.test(s);
}

/** A laugh, in letters or characters: "haha", "lol", "哈哈", "笑死". */
const LAUGH = String.raw`(?:ha(?:ha)+|he(?:he)+|lol|lmao|rofl|哈+|呵+|嘿+|笑死)`;

/** A laugh, an emoji or a tilde after the last word: how a sentence was said, not what it says. */
const TRAILING_MOOD = new RegExp(String.raw`(?:[\s,，.。!！~～…]*(?:${LAUGH}|\p{Extended_Pictographic}|\u200d|\ufe0f))+[\s.。!！~～…]*$`, "iu");

/** A question's end: a question mark, a Chinese question particle, or a question word left last ("…下得咋样", "晚饭吃啥"). */
const QUESTION_END = /[?？]\s*$|(?:吗|呢|么|咋样|怎么样|如何|啥|几点|哪儿|哪里)[。.]?$|谁(?![都也])[\u4e00-\u9fff]{1,4}的[。.]?$/;

/**
 * A clause that only exclaims how something is, by a word of degree: "太香了", "真不错啊", "so good", "amazing"
 * (examples in no case file). After a question it answers nothing.
 */
const EXCLAMATION = /^(?:太|好|真|超|巨|贼|特别|简直)[\u4e00-\u9fff]{1,4}(?:了|啊|呀|吧|哇)*[!！~～]*$|^(?:so|soo+|really|super|sooo+)\s+(?:good|tasty|yummy|nice|cool|fun|cute|funny)\b[!.\s]*$|^(?:amazing|delicious|incredible|awesome|yum+)[!.\s]*$/iu;

/**
 * English asks by word order as well as by its mark: a question word and then its verb, or a verb before its
 * subject, typed without a question mark. Examples, in no case file: "anyone know where the spare keys went",
 * "did u see the game last night". A sentence with a value or a colon after it states ("what was agreed: …").
 */
const INVERTED_EN = /^(?:(?:so|and|ok|okay|hey|also)[\s,]+)?(?:(?:how|what|where|when|who|why|which)\s+(?:is|was|are|were|do|does|did|can|could|will|would|should|has|have)|(?:did|do|does|is|are|was|were|has|have|can|could|will|would|should)\s+(?:you|u|ya|anyone|anybody|everyone|everybody|someone|somebody|we|they|it|there|this|that|he|she|i))\b/i;

/** A proposal answering the question before it: "…，要不叫个外卖", "…, how about the noodle bar". */
const PROPOSAL = /^(?:要不要?|不如|how about|what about|why don'?t we|shall we)\b|^(?:要不要?|不如)/iu;

/**
 * A sentence that asks: its end is a question once a laugh or an emoji after it is set aside, or it opens
 * with a question and goes on only to propose answers or to exclaim. Examples, in no case file: "周末去哪儿玩呢哈哈",
 * "下午茶喝点啥，不如点奶茶 😄".
 */
function asks(s: string): boolean {
  const bare = s.replace(TRAILING_MOOD, "").trim();
  if (QUESTION_END.test(bare)) return true;
  // "Should it fail, …", "were it not for …" put a condition first: an inversion before a comma is no question.
  if (INVERTED_EN.test(bare) && !/[:;：；]/.test(bare) && !(/^(?:should|were)\b/i.test(bare) && /,/.test(bare)) && !carriesHardValue(bare)) return true;
  const clauses = bare.split(/[,，;；]\s*/u).filter((c) => c.length > 0);
  return clauses.length > 1 && (QUESTION_END.test(clauses[0] as string) || INVERTED_EN.test(clauses[0] as string) || /^who\s+[a-z]{2,}/i.test(clauses[0] as string)) && clauses.slice(1).every((c) => PROPOSAL.test(c) || EXCLAMATION.test(c)) && !carriesHardValue(bare);
}

const NEWS_HEADER =
  /^(?:(?:right|ok|okay|so|alright|well)[,\s]+)?(?:(?:a|some|quick|small|big|good|bad|little|another)\s+)*(?:[\p{L}-]+\s+){0,3}?(?:update|news|heads[- ]up|announcement)\s*[!:.…]*$|^[\u4e00-\u9fff]{0,8}?(?:更新一下|同步一下|好消息|坏消息|通知一下|有个消息)[！!：:。…]*$/iu;

/** Named gate rules: a sentence matching one is not worth remembering. */
export const DROP_RULES: Array<{ name: string; test: (s: string, t: RuleThresholds) => boolean }> = [
  { name: "question", test: (s) => asks(s) },
  // A line that only announces news to come says nothing yet: "ok, quick budget update!", "坏消息：" (examples in no case file).
  { name: "news header", test: (s) => NEWS_HEADER.test(s.trim()) },
  {
    name: "greeting or thanks",
    test: (s, t) =>
      /^(hi|hello|hey|hiya|good (morning|afternoon|evening|night)|morning|thanks|thank you|thx|cheers|bye|goodbye|see you|take care|congrats|congratulations|you'?re (the best|welcome|awesome))\b[^.]{0,30}[.!]*$/i.test(s) ||
      /^(haha+|lol|ok(ay)?|sure|great|nice|cool|awesome|wow|yay|sounds good|no problem|no worries|got it|yeah|yes|yep|right|oh)\b[^.]{0,15}[.!]*$/i.test(s) ||
      /^(早上好|上午好|下午好|晚上好|你好|您好|谢谢|多谢|感谢|哈哈|嘿嘿|好的|好吧|嗯|不客气|再见|拜拜|辛苦[了啦咯啊])/.test(s) ||
      // Thanks or praise for the help itself: "thank you so much, that did it", "太感谢了", "你真是帮了大忙".
      /^(太|非常|真是?|十分|万分)(感谢|谢谢)|^你(真是|真|太)(帮了?[大不少]?忙|厉害|棒)|^(?:今天|这次|这回|又|真是?|你)*帮了(?:我|用户|我们)?(?:[大不少]忙|很多)[了啊呀！!。～~\s]*$|^(you'?re|you are) (a )?(lifesaver|life saver|legend|star|genius)\b/i.test(s) ||
      // Praise for the help said as what it did for the speaker: "u saved my afternoon", "you made my week", "you rock".
      /^\W*(?:you|u|ya)\s+(?:(?:just|totally|really)\s+)?(?:saved|made)\s+(?:my|the\s+user'?s|our)\s+(?:day|life|week|weekend|morning|afternoon|evening|night|bacon|skin)\b[^.]{0,20}$|^\W*(?:you|u)\s+(?:rock|rule)\b/i.test(s) ||
      // Thanks for help given at a time, and nothing to look up: "ta for last night, absolute hero", "多谢你上午帮我看".
      (/^(?:thanks|thank you|thx|ty|cheers|many thanks|ta)\s+(?:[a-z]+\s+){0,2}?for\s+(?:yesterday|today|earlier|this\s+(?:morning|afternoon|evening)|last\s+(?:night|week)|tonight|the\s+other\s+day|before|that)\b/i.test(s) && !carriesHardValue(s)) ||
      (/^(?:谢谢|多谢|感谢)(?:你|您|大家)?(?:昨天|今天|刚才|上午|下午|早上|晚上|前天|上次)/.test(s) && !carriesHardValue(s)) ||
      // Thanks for the help itself, with praise after it and nothing to look up: "thanks heaps for walking me through it, legend".
      (/^(?:thanks|thank you|thx|ty|cheers|many thanks)\s+(?:[a-z]+\s+){0,2}?for\s+(?:the|your|all\s+(?:the|your))\s+(?:help|support|input|patience|time|answers?|tips?|explanations?|advice|hand)\b/i.test(s) &&
        !carriesValue(s) &&
        !/[,;:—–-]\s*(?:the|our|my|we|it'?s|this)\s+\w+\s+(?:is|are|was|runs|uses|lives|moved)\b/i.test(s)) ||
      // A short line that ends in thanks closes the exchange: "that's all for now, thanks!", "就这些，多谢".
      (weightedLength(s) <= t.shortWishChars && (/\b(thanks|thank you|thx|ty|cheers)\b(?!\s+to\b)[^a-z]*$/i.test(s) || /(谢谢|谢啦|多谢|感谢)[了啦呀哈啊～~！!。.\s]*$/.test(s))) ||
      // A short wish is a courtesy, not a fact: "fingers crossed for Friday!", "happy holidays, all", "中秋快乐", "祝一切顺利".
      // "happy <occasion>" wishes are formulas over a closed set of occasions; their words cannot vary.
      (weightedLength(s) <= t.shortWishChars &&
        (/\b(wish (me|us|the user) luck|good luck|best of luck|fingers crossed|happy (new year|holidays|birthday|friday|weekend|easter)|merry christmas|have a (good|great|nice) (one|day|weekend))\b/i.test(s) ||
          /(新年|节日|生日|周末|中秋|春节|元旦|国庆)快乐|祝.{0,10}(顺利|快乐|好运|成功)|新春大吉/.test(s))) ||
      // A hope for the listeners' wellbeing is a courtesy: "hope the move went smoothly for you all", "希望大家假期都玩得尽兴".
      // It names them and how they feel or fare; a hope about the work ("we hope to ship by May") is a plan.
      (/^(?:i\s+)?hope\s+(?:you|u|everyone|everybody|y'?all|all\s+of\s+you|the\s+team|your|ur)(?:'s|'re|\s+all)?\b/i.test(s) &&
        /\b(?:good|great|nice|restful|relaxing|lovely|better|fun|enjoy(?:ed|ing)?|well|safe|smooth(?:ly)?|calmer|easier|feel(?:ing)?|rest(?:ed)?|recover(?:ed|ing)?|survived?|made\s+it|got\s+(?:through|home|back)|slept)\b/i.test(s)) ||
      /^(?:我)?希望(?:大家|你们|你|各位|您)[^。！？]{0,12}(?:开心|愉快|顺利|快乐|好运|健康|尽兴|平安|轻松|休息好|过得)/.test(s),
  },
  {
    // Talk that keeps the conversation going: how someone is, a verdict on the weather. A rule that depends on the
    // weather ("flights only go when the weather is calm", "天气好的时候才起飞") is a fact, so a verdict has to be
    // said of the weather itself. Examples, in no case file: "how've you been", "glorious weather this week", "今天天气真闷".
    name: "small talk",
    test: (s) =>
      /天气[^，。,的]{0,2}?(?:真|很|不错|好|棒|差|糟|烂|热|冷|闷|晴|爽|舒服)(?!的时候|时|才|就)|周末过得|吃饭了吗|最近(?:怎么样|还好|忙吗|咋样|如何)|你(?:还)?好吗/.test(s) ||
      /\bhow (was|is|are) (your|the) (weekend|day|week)\b|\bhow'?s it going\b|\bhow (?:are|r) (?:you|u|ya|things)\b|\bhow (?:have|'ve) you been\b|\bhow you doin'?g?\b/i.test(s) ||
      // The weather where the speaker is, today: "brr it's bitter out, -8 at the bus stop", "这两天我这边一直下雨". A reading
      // with a number is still the moment's; a condition ("when it's hot", "低于5度时") makes it a rule.
      (((/^(?:(?:ugh|brr+|wow|man|god|oh|phew)\W+)*(?:it'?s|it\s+is|it'?s\s+been|today\s+is|today'?s|tonight\s+is|this\s+morning\s+is)\s+(?:so\s+|very\s+|really\s+|super\s+|bloody\s+|freaking\s+|damn\s+|crazy\s+)?(?:cold|hot|warm|freezing|chilly|humid|muggy|raining|pouring|snowing|windy|stormy|sunny|boiling|scorching|baking|bitter)\b/i.test(s) ||
      // The same said without "it's", as the sentence's opening: "so muggy out here", "freezing in the van this morning".
        /^(?:(?:ugh|brr+|wow|man|god|oh|phew)\W+)*(?:(?:so|very|really|super|crazy|way\s+too|too)\s+(?:cold|hot|warm|chilly|humid|muggy|windy|sticky|sweaty)|freezing|sweltering)\s+(?:(?:in|out)\s+(?:here|there|the\s+\w+)|outside|here|today|tonight|this\s+(?:morning|afternoon|evening))\b/i.test(s)) &&
        !/\b(?:when|whenever|if|unless|until|below|above|under|over)\b/i.test(s)) ||
        (/^(?:今天|今儿|外面|这边|这里|这两天|我们?这(?:边|儿|里)?)[^，。！]{0,4}?(?:好|很|真|太|超|特别|有点|一直)?(?:冷|热|闷|晒|下(?:大|小|暴)?(?:雨|雪))/.test(s) && !/时候|时|如果|的话|低于|高于|超过/.test(s))) ||
      /\b(?:lovely|gorgeous|beautiful|glorious|awful|terrible|horrible|miserable|grim|nice|sunny|rainy|gloomy|freezing|boiling|scorching|perfect)\s+(?:\w+\s+)?weather\b(?!\s+(?:api|data|service|station|feed|widget|app|alerts?)\b)|\bweather\s+(?:is|'s|has\s+been)\s+(?:so\s+|really\s+|absolutely\s+)?(?:lovely|gorgeous|beautiful|glorious|awful|terrible|horrible|miserable|grim|nice|great|amazing|perfect)\b/i.test(s),
  },
  {
    name: "momentary remark",
    test: (s) =>
      // "right now" bounds a state of the moment; with a value in it ("capped at 2 GB right now") it is a fact that may change.
      (/\b(right now|at the moment|just now|atm|rn)\b/i.test(s) && !carriesValue(s)) ||
      // A groan in front colours a remark; a value after it is still a fact ("ugh, the staging box is still on Ubuntu 18").
      (/^(ugh|argh|oops|whoops|oh no|damn|hmm+)\b/i.test(s) && !carriesHardValue(s)) ||
      /^(let me|lemme|brb|be right back|i'?ll be right back|gotta go)\b/i.test(s) ||
      // A breakdown complained about as happening again, as the whole sentence: "the printer on 2 is jammed again",
      // "电梯又坏了，爬了六楼". Given as the reason for a change ("moved out of room 3, the radiator is dead again") it is not.
      (/^[^,;，；—]*\b(?:is|'s|are|'re)\s+(?:broken|down|dead|jammed|busted|out|acting\s+up|playing\s+up)\s+again\b[^,;，；—]*$/i.test(s) && !/\b(?:if|when|whenever|until)\b/i.test(s)) ||
      // A counted object after the verb makes it a report, not a groan: "又挂了两盆吊兰" (hung up two pots), "又坏了三台路由器".
      /^[^，,；;]{0,12}又(?:坏|挂|崩|卡|堵|停电|断网)了(?!\s*(?:[一二两三四五六七八九十几半\d]+|好几)\s*[个批盆株棵排箱袋块根条张套把件台只份串辆])/.test(s) ||
      /^(我先|等一下|稍等)/.test(s),
  },
  {
    // A pause or a return in the conversation: "one moment, the courier is here", "ok I'm back", "等我两分钟".
    name: "interruption",
    test: (s) =>
      /^(wait|hang on|hold on|one (sec|second|moment|min|minute)|just a (sec|second|moment|minute)|give me (a|one|two|five|\d+) (sec|second|moment|min|minute)s?|be back|back( now)?|i'?m back|sorry,? (i'?m )?back|gotta (run|go|dash)|afk)\b/i.test(s) ||
      /\b(back in (a|an|one|two|five|half an|\d+) ?(sec|second|min|minute|hour)s?|back in (\d+|five|ten|fifteen|twenty|thirty)\W*$|be (right )?back|brb|give (me|the user) (a|one|two|five|\d+) (sec|second|min|minute)s?)\b/i.test(s) ||
      /^(heading|popping|stepping|running) out\b/i.test(s) ||
      // A bare duration tacked onto a clause asks the listener to wait: "the kettle's boiling, two minutes".
      /(^|[,;:—–-]\s*)(just\s+)?(a|one|two|three|five|ten|\d+)\s+(sec|second|moment|min|minute)s?\s*[.!…]*$/i.test(s) ||
      /^(等(我)?(一下|下|一会|会儿|片刻|[一二两三五十\d]+分钟)|稍等|回来了|我回来了|先这样|我(先)?(去|得)(开会|(接|打)个?电话|吃饭|忙))/.test(s) ||
      LEAVING_ZH.test(s) ||
      // Leaving, said as the whole sentence: "我先撤了", "我去打球啦", "好啦我闪了🏃".
      /^(?:好啦|好了|那)?[，,\s]*我(?:先|得|要)?(?:去|撤|溜|闪)(?:[\u4e00-\u9fff]{1,3})?(?:了|啦|咯|喽)[\s\p{P}\p{S}\p{Extended_Pictographic}\uFE0F～~]*$/u.test(s),
  },
  {
    // Coming back to the conversation: an apology for the wait or asking where it stood: "apologies, the call
    // overran", "sorry, got pulled into a meeting", "so where was I", "刚才去开会了，久等".
    name: "return",
    test: (s) =>
      /^(?:sorry|apologies|my apologies|soz)\b[^.]{0,24}\b(?:took\s+(?:so\s+long|forever|a\s+while|ages)|for\s+the\s+(?:wait|delay)|to\s+keep\s+you\s+waiting|(?:got|was)\s+(?:pulled|dragged|called)\s+(?:into|away)|ran\s+(?:long|over)|overran)\b/i.test(s) ||
      /^(?:so\s+|ok(?:ay)?\s+|right\s+|anyway\s+)?where\s+(?:were|was)\s+(?:we|i)\b/i.test(s) ||
      /^(?:不好意思|抱歉|久等了?)[，,]?(?:刚才|刚刚)?[^。]{0,10}(?:久等|回来了|耽误)/.test(s) ||
      // An apology for answering late, with its excuse but no fact in it: "sorry for the late reply, the vet ran long",
      // "抱歉回晚了，路上堵车". Should the excuse carry a number or a name, the sentence is judged as a statement.
      ((/^(?:sorry|apologies|my apologies|soz)\b[^.]{0,14}?\b(?:late|slow|delayed)\s+(?:reply|response|answer)/i.test(s) ||
        /^(?:不好意思|抱歉|sorry)[，,\s]*(?:回复|回消息|回)(?:得)?(?:晚|慢)了/i.test(s)) &&
        !carriesValue(s.slice(12))) ||
      /(?:我们|刚才)?(?:说|聊)到哪(?:儿|里)?了/.test(s),
  },
  {
    // What to do next in this conversation, not something to keep: "let's dig into the flaky test", "let me see the diff first", "咱们先看看日志".
    name: "next step in the conversation",
    test: (s) =>
      /^(?:(?:ok(?:ay)?|so|right|alright|anyway|whatever|fine|now)\b[\s,.!]*)*(?:let'?s|lets|let\s+us)\s+(?:(?:just|first|quickly|now)\s+)?(?:look|have\s+a\s+look|take\s+a\s+look|check|see|try|dig|debug|figure|go\s+(?:over|through|back)|get\s+back|focus|start|continue|move\s+on|pick\s+up|circle\s+back|switch\s+to|jump\s+to|talk\s+about)\b/i.test(s) ||
      /^(?:好|那|行)?(?:咱们|我们)(?:先|再|接着|继续)(?:看看|看一下|查一下|聊聊|说说|来看)/.test(s),
  },
  {
    // Something going on around the speaker as they type: a pet, a child, a noise, a visitor: "the neighbour's
    // drill has started again", "my kid keeps grabbing the mouse", "楼上又在装修".
    name: "around the speaker",
    test: (s) =>
      /\b(?:my|the|our)\s+(?:dog|cat|puppy|kitten|kid|kids|baby|toddler|son|daughter|neighbou?r'?s?\s+\w+|neighbou?rs?)\s+(?:(?:won'?t|wont|will\s+not|can'?t|cannot)\s+stop|keeps?|is\s+(?:on|sitting\s+on|walking\s+on|chewing|crying|barking|screaming|yelling)|just\s+[a-z]+)\b/i.test(s) ||
      /^(?:ok(?:ay)?\s+|right\s+|phew\s+)?(?:she'?s|he'?s|it'?s|they'?re)\s+(?:off|gone|asleep|down|quiet)(?:\s+now)?\W*$/i.test(s) ||
      /(?:狗|猫|孩子|宝宝|小孩|邻居|楼上)[^。，,]{0,6}(?:一直|又|在)(?:叫|哭|闹|吵|装修|捣乱)/.test(s) ||
      // The speaker's machine straining as they type: "my laptop's fan is howling", "电脑风扇狂转".
      /\b(?:my|the\s+user'?s|this)\s+(?:laptop|computer|pc|mac|macbook|machine|fan|phone|battery)(?:'s|\s+fan)?(?:\s+is|'s|\s+are)\s+(?:\w+\s+)?(?:screaming|roaring|howling|whining|dying|melting|overheating|burning\s+up|struggling|on\s+fire|crying)\b/i.test(s) ||
      /(?:电脑|笔记本|风扇|手机)[^，。]{0,4}(?:狂转|呼呼转|发烫|烫手|快没电|没电了|卡死了|卡成)/.test(s),
  },
  {
    // A remark wrapped in an interjection of feeling is about the moment: "meh, the projector died again", "the demo froze, lol", "哎，又停电了".
    name: "interjection",
    test: (s) =>
      (/^(haha+|hehe+|lol|lmao|ugh+|argh+|phew|sigh|meh|welp|yikes|oof|omg)\b/i.test(s) && !carriesHardValue(s)) ||
      /[,;—–-]\s*(ugh+|lol|lmao|haha+|sigh|meh|oof)[.!…]*$/i.test(s) ||
      // Chat often puts the laugh after the last word with no comma ("the printer jammed again lol"); a line
      // that carries a value (a number, a name, a path) is still judged as a statement.
      // A short plea or shrug may follow the laugh ("…yet lol, send help", "…again lmao smh").
      (/\s(lol|lmao|rofl|haha+)\b[,.!…]*(?:\s+[a-z']+){0,3}[.!…]*$/i.test(s) && !carriesValue(s)) ||
      // As in English, a value after the cry is still a fact ("唉忘了说，测试库端口改成 5544 了").
      (/^(唉|哎|哈哈+|呵呵|呃|嗐|哎呀|天哪)[，,！!。…\s]/.test(s) && !carriesHardValue(s)) ||
      // A sigh needs no comma in Chinese: "唉又下雨", "嗐这破网", "哎呀又堵车".
      (/^(唉|嗐|哎呀)[\u4e00-\u9fff]/.test(s) && !carriesHardValue(s)) ||
      // A repeated cry opens an outburst: "啊啊啊又崩了", "呜呜呜".
      /^(啊|呜|嗷){2,}/.test(s) ||
      // A verdict in internet slang closing a short line is praise of the moment ("食堂新出的面 yyds", "这波操作绝绝子").
      shortBeside(s, SLANG_VERDICT_TAIL) ||
      cheerOnly(s) ||
      // A cheer for a game just played or watched opens with the word players say at its end: "gg, that last round
      // was wild", "good game everyone", "what a match yesterday", "这局打得太漂亮了", "昨晚那场比赛太刺激了".
      (/^(?:gg(?:wp)?|good game|what an? (?:game|match|comeback|finish|final))(?=\s*(?:[,!.…]|$)|\s+(?:everyone|all|guys|lads|team|folks|y'?all|last night|today|tonight|yesterday|again)\b)/i.test(s) && !carriesHardValue(s)) ||
      (/^(?:这|那|昨晚那|昨天那|刚才那)(?:局|把|场|盘)[^，。！!]{0,8}(?:太|真|好)(?:精彩|刺激|爽|漂亮|神|燃)了?/.test(s) && !carriesHardValue(s)),
  },
  {
    // Closing the session for now, not a plan to remember: "ok calling it a day", "I'll look at this again in the morning", "先到这儿吧".
    name: "sign-off",
    test: (s) =>
      /\b(ttyl|ttys|cya|gtg|g2g|talk to (?:you|u) later|call(ing)? it a (day|night)|that'?s (it|all|enough|everything)( from me)? for (the )?(day|today|now|tonight|this week)|(pick|picking) (this|it) (back )?up (tomorrow|later|on monday|next week)|(talk|speak|catch you) (tomorrow|later|soon)|signing off|logging off)\b/i.test(s) ||
      /(先到这(儿|里)|今天就到这|(?:^|好了|行了|那)不(?:说|聊)了|明天再(说|弄|看|继续)|回头再(说|聊|看)|(一会儿?|待会儿?|等会儿?|晚点|晚些)再(说|聊|看)|下次再(聊|说))/.test(s) ||
      // Putting the talk off until something is over ends the exchange: "开完会再聊", "吃完饭再说吧", "that's all for now".
      /(先这样|就这样)(吧|啦|了)?[，,～~！!。\s]|[\u4e00-\u9fff]{1,4}再(聊|说)(吧|啦|哈|哦)?[～~！!。.\s]*$/.test(s) ||
      // A farewell word closing a short line ("收工 88", "今天先这样 886", "走了 bye"): chat spells goodbye in digits.
      shortBeside(s, FAREWELL_TAIL),
  },
  {
    // How the speaker is or where they are for now, not who they are: "I'm knackered today", "on the bus, bad signal", "心情不好", "在地铁上".
    name: "passing state",
    test: (s) =>
      /\b(i'?m|i am|i feel|feeling|the user is|the user feels)\s+(so\s+|really\s+|completely\s+|totally\s+|a bit\s+|kind of\s+|pretty\s+)?(tired|exhausted|wiped out|knackered|sleepy|stressed|swamped|grumpy|cranky|annoyed|frustrated|bored|hungry|sick|ill|under the weather|in a (bad|good|foul) mood|on (a|the) (train|bus|plane|flight|subway|tube|metro|road)|at (the )?(station|gym|dentist|doctor'?s|airport))\b/i.test(s) ||
      // Someone close being ill today, and what it does to the speaker's day: "my wife's down with flu today, I'll log off early",
      // "孩子这两天感冒，我请半天假". Off sick until a named day is a bounded fact someone may plan around.
      /\b(?:is|'s|are|was)\s+(?:\w+\s+)?(?:sick|ill|unwell|poorly|feverish|down\s+with\s+(?:a\s+|the\s+)?\w+)\b(?=[^.]{0,30}\b(?:today|tonight|this\s+(?:morning|afternoon|week))\b)|\b(?:today|tonight|this\s+morning)\b[^.]{0,20}\b(?:is|'s|are)\s+(?:sick|ill|unwell|poorly)\b/i.test(s) ||
      /(?:今天|今儿|这两天|这几天)[^，。]{0,6}(?:生病|发烧|感冒|不舒服|拉肚子)|(?:生病|发烧|感冒|不舒服)了?[^。]{0,6}(?:请[个半]?(?:天)?假|所以)/.test(s) ||
      /\b(bad|patchy|spotty|flaky) (signal|connection|wifi|wi-fi|reception)\b/i.test(s) ||
      // How much the speaker has had so far today: "on my sixth cup of tea", "第五根烟了".
      /\b(?:on|at)\s+(?:my|the\s+user'?s)\s+(?:\d+(?:st|nd|rd|th)|second|third|fourth|fifth|sixth|seventh|umpteenth|nth)\s+(?:\w+\s+)?(?:coffee|tea|cup|mug|pint|beer|glass|liter|litre|bottle|can|espresso|latte|energy\s+drink|cigarette|smoke|snack)s?\b/i.test(s) ||
      /第[二三四五六七八九十\d]+(?:杯|瓶|罐|根|包)(?:咖啡|奶茶|茶|水|可乐|红牛|烟|啤酒)?了/.test(s) ||
      // The body aching from the day, not a lasting condition: "my wrists are sore from all the typing", "颈椎疼得不行".
      /\b(?:my|the\s+user'?s)\s+(?:back|neck|head|feet|legs?|knees?|shoulders?|arms?|wrists?|hands?|eyes|hips?)\s+(?:is|are|'s|'re)\s+(?:(?:so|really|absolutely|properly)\s+)?(?:killing\s+(?:me|the\s+user)|aching|sore|throbbing|pounding|hurting|on\s+fire)\b/i.test(s) ||
      /(?:腰|背|脖子|颈椎|肩膀|腿|脚|膝盖|胳膊|手腕|眼睛|头)(?:都|好|太|有点|特别|真|超)?(?:酸|疼|痛|麻)(?:死了|得要命|得不行|得厉害|爆了)/.test(s) ||
      // Where the speaker types from, and sorry for what it does to the typing: "on my tablet so excuse typos".
      /\b(?:typing|writing|texting|replying)\s+(?:on|from)\s+(?:my|the\s+user'?s|a)\s+(?:phone|mobile|tablet|ipad|watch)\b|\b(?:sorry|excuse|apologies)\s+(?:for\s+)?(?:the\s+|any\s+|my\s+)?typos\b/i.test(s) ||
      /\b(i'?m|i am|i feel|feeling|the user is|the user feels)\s+(?:kinda|kind of|sort of|a little|a bit|super|very|quite)\s+(tired|exhausted|sleepy|stressed|sick|ill|off|rough|rubbish|meh)\b/i.test(s) ||
      // A glitch that came and went: "刚才网断了一下", "VPN 刚掉了一下，现在好了".
      /(?:刚才|刚刚|刚)[^，。]{0,8}(?:断|卡|掉线|掉|挂|闪退)了?一下/.test(s) ||
      /\b(long|rough|tough|crazy|hectic|exhausting|brutal|slow) (day|week|morning|night|shift)\b|\bhalf asleep\b|\b(jet-?lagged|hungover|burnt out|drained)\b/i.test(s) ||
      // The speaker's own trip in the next day or so: "flying out to Lisbon tonight for a cousin's birthday", "明天飞成都参加婚礼".
      /^\W*(?:i'?m\s+|we'?re\s+|the\s+user\s+is\s+)?(?:flying|driving|heading|travell?ing|off)\s+(?:out\s+|back\s+|over\s+)?to\s+[^.,;]{1,30}?\s+(?:tomorrow|tonight|today|this\s+(?:weekend|evening|afternoon|morning))\b/i.test(s) ||
      /^(?:我)?(?:明天|今晚|今天|后天|周末)(?:要)?(?:飞|去|回|出差去?)[\u4e00-\u9fff]{1,6}(?:参加|看|玩|度假|探亲)/.test(s) ||
      // The day summed up as a feeling: "yet another day of back-to-back calls", "又是加班到半夜的一天".
      /\b(yet )?another (\w+ )?day of\b/i.test(s) ||
      /^\W*what an?\s+(?:\w+\s+)?(?:day|night|week|weekend|morning|evening|shift|ride|commute)\b[^a-z0-9]*$/i.test(s) ||
      /又是[^。，,！!]{1,14}的一(天|周|晚)/.test(s) ||
      // The day of the week and the speaker's mood about it: "又周一了，不想上班", "周五啦，划水中". Slacking off is the moment's.
      /^(?:终于|又)?(?:周[一二三四五六日末]|星期[一二三四五六日天]|礼拜[一二三四五六天])(?:了|啦|喽)[，,！!～~\s]*(?:[^，。]{0,6}(?:摸鱼|划水|不想上班|不想干活|想放假)[^，。]{0,3})?[\p{Extended_Pictographic}\s!！～~。]*$|(?:摸鱼|划水)(?:中|一下|ing)?[\p{Extended_Pictographic}\s!！～~。]*$/u.test(s) ||
      // A mishap happening as the speaker types: "the toddler just knocked my tea over", "my laptop just died".
      /\bjust\s+(spilled|spilt|knocked|dropped|tipped|fell|woke|died|crashed on me)\b/i.test(s) ||
      /(心情|情绪)(特别|非常|很|有点|不太|好|太|真|超|挺|蛮)?(差|糟|不好|低落|烦)|(有点|好|太|很|特别|真|超|挺)(累|困|饿|冷|热|闷|烦|郁闷|焦虑|无聊|难受|崩溃|丧)|(累|困|冷|热|饿|气|急|烦)死(了|我了|啦|(?=[^\u4e00-\u9fffA-Za-z0-9]|$))|冻僵|(在|正在)(机场|车站|医院|路上|排队)|不想干|(?:今天|今儿|最近|这会儿)?(?:心情|状态)(?:很|挺|特别|超|真|还|蛮)?(?:不错|好|棒|美)(?:的|啊|呀)?[。！!～~]*$|心态(?:都|彻底|直接|完全)?(?:崩|炸|爆)|破防了|(?:累|困|饿|冷|热|气|急|烦)(?:瘫|趴|坏|疯|炸)了|(在|坐)(地铁|高铁|公交|火车|飞机|出租车|车)上|信号(不好|不太好|很差|时断时续)|网络(不好|很差|时断时续)/.test(s),
  },
  {
    // Thinking aloud is not a decision, and the speaker says so: "just spitballing here", "nothing is settled", "我就是瞎想想".
    // The English markers are fixed idioms of the closed class of musing ("thinking out loud" cannot be reworded and stay the idiom).
    name: "thinking aloud",
    test: (s) =>
      /\b(thinking (out loud|aloud)|(just )?(brainstorming|spitballing|musing)|just an idea|nothing'?s (decided|settled|final)|nothing is (decided|settled|final))\b/i.test(s) ||
      /(随便|瞎)想想|只是(个|一个)?(想法|设想)|还只是(个)?想法/.test(s),
  },
  {
    name: "preamble",
    test: (s) =>
      /^(quick (overview|note|summary|update)|here'?s (a|the|some) (quick )?(overview|summary|rundown|context)|handing over\b.{0,40}|some context|for context|background)[^.]{0,30}[.:!]?$/i.test(s) ||
      /^(我)?(先)?把(情况|背景)(都)?(说|讲)一下|^我先(说|讲)一下|^先(说|讲)一下/.test(s),
  },
  { name: "asks the assistant", test: (s) => /^(can|could|would|will) you\b/i.test(s) || /^(你)?(帮我|请帮我)(看看|查一下|检查)/.test(s) },
  // Emoji and other symbols say nothing to look up later: "😂😂😂", "👍🙏".
  { name: "too short", test: (s, t) => s.replace(/[\s\p{P}\p{S}\p{Extended_Pictographic}]|\u200d|\ufe0f/gu, "").length < t.minStatementChars },
];

// "One more:" announces the next item of a list, which is the statement ("one more thing: the lab closes at 6",
// "再补充一条：周五不发版").
const LEADING_FILLER = /^(reminder|note|fyi|btw|by the way|also|oh,? and|and|again|just to confirm|quick note|quick one(?=\s*[:,\-–—])|(?:and\s+)?(?:one more|another)(?:\s+(?:thing|one|rule|point|item|note))?(?=\s*[:\-–—])|ps|anyway|anyhow|back to business|on a serious note)\s*[:,\-–—]?\s+/i;
// A return to business after chatter ("言归正传", "说回正事") opens the statement and is no part of it.
const LEADING_FILLER_ZH = /^((?:还有|另外|再(?:补充|加|说)?)一(?:个|条|点|件|项)(?:事儿?|规定|要求|规矩)?(?=\s*[，,：:])|(再|顺便)?(说|讲|提醒|强调|补充|记)(一下|一遍)(?:哈|啊|吧)?|另外|还有|对了|言归正传|(?:说|聊)?回?正事(?:儿)?|回到正题|说回正题)[，,：:]?\s*/;
/**
 * Words that frame the telling rather than say anything: a greeting or heads-up in front, a
 * "just so you know" behind. Examples, in no case file: "Hey team, the staging VPN moved to port
 * 1195, FYI" → "the staging VPN moved to port 1195"; "跟你说一声，仓库周日不发货哈" → "仓库周日不发货哈".
 */
const FRAMING_OPENER = /^(?:(?:hi|hey|hello|hiya|heads[- ]up|good (?:morning|afternoon|evening))(?: there| all| team| everyone| folks| guys)?\s*[,:!—–-]+\s*|(?:morning|afternoon|evening|mornin'?)(?: all| team| everyone| folks| guys| y'?all| crew)?\s*[,!]+\s*|(?:(?:大家|各位)?早(?:啊|呀|哈|安|上好)?|(?:大家|各位)(?:好|早上好|下午好|晚上好))[，,！!～~]\s*|(?:你好|您好|嗨|哈喽|(?:[跟和给][你您大家]{1,2})?(?:[说讲]|告诉|提醒)[你您]?一[声下])[，,：:！!]\s*)/iu;
const FRAMING_TAIL = /[\s,;—–-]+(?:just\s+)?(?:so you know|fyi|for your info(?:rmation)?|for the record|just saying|if that helps)\s*([.!。！]*)$|[，,]?(?:(?:[跟和给][你您])?(?:[说讲]|告诉)[你您]?一声|供参考)([。！!]*)$/iu;

/**
 * An opening that puts the sentence next to what was said before it, as one more point: the word goes
 * (a memory does not start with "also"), what it says stays with the statement. Examples, in no case
 * file: "Plus, the nightly export goes to the finance bucket", "此外，周末的工单由值班同学处理".
 */
const ADDITION_OPENER = /^(?:also|plus|on top of that|in addition|additionally|(?:oh,?\s+)?and also|oh,?\s+and)\b|^(?:另外|还有(?![\d一二两三四五六七八九十几半]|多久|多少)|此外|再就是|再有|而且)/i;

function opensAsAddition(sentence: string): boolean {
  return ADDITION_OPENER.test(sentence.replace(FRAMING_OPENER, "").replace(/^(?:对了|btw|by the way)[，,：:\s]*/i, "").trim());
}

/** The statement as a standalone sentence about its speaker; a speaker's name is kept in front when the sentence does not name them. */
function standalone(unit: string, speaker: string | null, t: RuleThresholds): string {
  const cjk = cjkRatio(unit) >= t.chineseRatio;
  const rewritten = cjk ? standaloneChinese(unit, speaker ?? "用户") : standaloneEnglish(unit, speaker ?? "The user");
  return speaker && !rewritten.includes(speaker) ? spokenBy(speaker, rewritten) : rewritten;
}

/** Gate rules that say a sentence carries nothing to look up later (a question or a request may still hold a detail). */
const NOISE_RULES = new Set(["greeting or thanks", "small talk", "momentary remark", "interruption", "return", "next step in the conversation", "around the speaker", "interjection", "sign-off", "passing state", "thinking aloud", "too short"]);
const NOISE_DROP_RULES = DROP_RULES.filter((r) => NOISE_RULES.has(r.name));

/**
 * A turn that is only noise — chit-chat, interruptions, passing states, or retracted — is not
 * evidence of anything: the raw-log fallback does not return it either.
 */
export function turnIsNoise(text: string, t: RuleThresholds): boolean {
  const sentences = withQuestionTails(withInterjections(withoutCourtesies(splitSentences(text)), t), t);
  if (sentences.length === 0) return true;
  // A question can be small talk too ("how have you been?"): any noise rule that holds makes the sentence noise.
  return afterRetraction(sentences, t).every((s) => gateRule(s, t, NOISE_DROP_RULES) !== undefined);
}

/** A discourse marker in front changes nothing about what a sentence is: "Sorry, one sec", "Ok so, brb", "好了先这样", "嗯，我在排队". */
const DISCOURSE_MARKER = /^(?:(?:sorry|ok(?:ay)?|oh|um+|uh+|well|so|alright|right|anyway)\b[\s,.!…-]*)+|^(?:好了|好吧|嗯+|那个|哦|那)[，,\s]*/iu;

/** A word that asks the listener to pause: "wait", "hold on", "等等". */
const PAUSE_OPENER = /^(?:wait|hang on|hold on|hmm+|oops|whoops|my bad|oh no)\b[\s,.!…:;—–-]*|^(?:等等|等一下|慢着)[，,。！!：:\s]*/iu;

/**
 * A pause word that opens a correction or an update is not an interruption: the speaker stops to
 * set the record straight, and what follows is judged on its own. Examples, in no case file: "hold
 * on, that changed last sprint: the API returns ISO dates now", "等等，我记错了，周会改到周四了".
 */
function correctionAfterPause(sentence: string, t: RuleThresholds): string | null {
  const bare = sentence.replace(DISCOURSE_MARKER, "");
  const opener = bare.match(PAUSE_OPENER);
  if (!opener) return null;
  const rest = bare.slice(opener[0].length).trim();
  const corrects = correctsEarlier(rest) || STALE_REMARK.test(rest) || announcesChange(rest) || oldValues(rest).length > 0;
  if (!corrects || weightedLength(rest) < t.correctionMinChars) return null;
  // "that's outdated — we moved the docs to Starlight": the remark points back; the rest is the statement.
  const remark = rest.match(STALE_REMARK);
  const after = remark?.index === 0 ? rest.slice(remark[0].length).replace(/^[\s,，、.。:：;；!！—–-]+/u, "") : "";
  return weightedLength(after) >= t.correctionMinChars ? after : rest;
}

/** The speaker calls what was said stale or wrong: "that's out of date", "that was wrong", "那个过时了", "我说错了". */
const STALE_REMARK = /\b(that|this|it|what i (just )?said|i)\s*('s|'m|'re| is| was| am| were)?\s+(a bit |totally |completely )?(outdated|out of date|obsolete|wrong|incorrect|not (right|true|correct)|no longer (true|right|the case))\b|(?:我|刚才|刚刚|之前)*(?:说错了|记错了)|(?:那个|这个|那条)?(?:信息)?过时了|不对/iu;

/** A laugh or a sigh: said before business, it is chatter by itself ("haha ok, …", "呵呵，…"). */
const REACTION = String.raw`(?:${LAUGH}|ugh+|sigh|meh|welp|oof|phew|ok(?:ay)?|唉|哎|嗐)`;
const REACTIONS = new RegExp(String.raw`^\W*${REACTION}(?:[\s,，.。!！…~～]*${REACTION})*\W*$`, "iu");

/**
 * A marker that brings in a piece of information or turns to business: after chatter in the same sentence
 * (or opening it) it starts the statement. Examples, in no case file: "brb, fyi the invoices job moved to
 * 2am", "haha ok, jokes aside: the payroll export runs on the 25th", "呵呵，言归正传，仓库每季度末盘点".
 */
const INFO_MARKER = /(?<=^|[\s,，.。!！…~～:：;；—–\-*)）])(?:(?:but|and|so|oh)\s+)?(?:heads[- ]up|fyi|btw|by the way|for the record|just so you know|note that|reminder|any(?:way|how|ways)|seriously(?:\s+though)?|on\s+a\s+(?:more\s+)?serious\s+note|(?:jokes?|kidding)\s+aside|back\s+to\s+(?:business|work|the\s+point))\b[\s,.:：;—–-]*|(?:不过|但是|但)?(?:说正事|说回正事|言归正传|话说回来|回到正题|(?:正经|认真|老实)说|说(?:正经|真|实在|认真|老实)(?:的|话)|顺便(?:说|提|讲)(?:一)?下|记(?:一)?下|提醒(?:一)?下)[，,。:：\s]*/giu;

/** The opening of a sentence is chatter by itself: a laugh, a sigh, a pause or a return ("回来了～", "gotta run, back in 5."). */
function isChatterOpening(text: string, t: RuleThresholds): boolean {
  const bare = text.trim();
  if (bare.replace(/[\s\p{P}\p{S}\p{Extended_Pictographic}]|\u200d|\ufe0f/gu, "").length === 0) return true;
  if (BARE_INTERJECTION.test(bare) || REACTIONS.test(bare)) return true;
  return NOISE_DROP_RULES.some((r) => r.name !== "too short" && r.test(bare, t));
}

/**
 * A break between two clauses: a dash, a semicolon, a comma before a contrast; in speech typed without
 * punctuation, a bare "so". After a mood, a clause that carries a value is the statement. Examples, in no
 * case file: "rough night but it's sorted - the cache TTL is 300 s now", "烦死了，不过好歹上线了：新版本号是 4.2",
 * "brb ok back so the invoice run moved to the 28th".
 */
const CLAUSE_BREAK = /\s+[-–—]{1,2}\s+|\s*——\s*|[;；]\s*|[,，]\s*(?:but|so|though|不过|但是?|可是)\s*|\s+so\s+(?=\S)/giu;

/**
 * The point a story comes to: what follows the marker is what the speaker wants kept, and the story before
 * it (who called, how long it took) is how they got there. Examples, in no case file: "…went round in
 * circles for an hour, long story short: the lease ends in May", "…折腾了一下午，总之结论是：发票按月开".
 */
const CONCLUSION = /(?<=^|[\s,，.。:：;；—–-])(?:(?:but|and|so)\s+)?(?:(?:the\s+)?(?:upshot|gist|point|short\s+version)\s+(?:is|was)\b|bottom\s+line\b|long\s+story\s+short\b|tl;?dr\b|in\s+short(?=\s*[,:：])|in\s+a\s+nutshell\b)[\s,.:：;—–-]*|(?<=^|[，,。；;：:\s])(?:(?:反正|总之|总而言之|长话短说|简单(?:来)?说|一句话)(?:[，,]?\s*结论(?:就)?是)?|结论(?:就)?是(?=[:：]))[，,:：\s]*/giu;

function businessAfterChatter(sentence: string, t: RuleThresholds): string | null {
  for (const marker of sentence.matchAll(INFO_MARKER)) {
    const at = marker.index ?? 0;
    const rest = sentence.slice(at + marker[0].length);
    if (rest.trim().length > 0 && isChatterOpening(sentence.slice(0, at), t)) return rest;
  }
  // The last point a story comes to, when the story itself holds no value that would be lost.
  for (const marker of [...sentence.matchAll(CONCLUSION)].reverse()) {
    const at = marker.index ?? 0;
    const story = sentence.slice(0, at);
    const rest = sentence.slice(at + marker[0].length);
    if (weightedLength(story) >= t.correctionMinChars && weightedLength(rest) >= t.correctionMinChars && !carriesHardValue(story)) return rest;
  }
  // The last clause break after a mood, when what follows carries a value and the mood none.
  for (const brk of [...sentence.matchAll(CLAUSE_BREAK)].reverse()) {
    const at = brk.index ?? 0;
    const opening = sentence.slice(0, at);
    const rest = sentence.slice(at + brk[0].length);
    if (opening.trim().length > 0 && carriesHardValue(rest) && !carriesHardValue(opening) && isChatterOpening(opening, t)) return rest;
  }
  return null;
}

/** Rules about the speaker's mood or surroundings, which a sentence may give as the reason for an instruction. */
const MOOD_RULES = new Set(["small talk", "passing state", "around the speaker"]);

/**
 * A standing instruction or preference in the sentence: the mood beside it is its reason, not the point.
 * Examples, in no case file: "from now on send the digest at nine, mornings are too hectic", "以后日报晚上发，白天太忙了".
 */
const STANDING_INSTRUCTION = /\b(?:from now on|going forward|from here on|always|please|i prefer|i'?d rather|make sure)\b|以后|今后|往后|从(?:现在|今天|此)(?:起|开始)|一律|统一|请(?:用|把|在)|记得|务必/i;

function gateRule(sentence: string, t: RuleThresholds, rules = DROP_RULES): (typeof DROP_RULES)[number] | undefined {
  const judged = businessAfterChatter(sentence, t) ?? correctionAfterPause(sentence, t) ?? sentence;
  if (judged.trim().length === 0) return rules.find((r) => r.name === "interjection");
  // A greeting in front frames the sentence and says nothing of what it is: "hi all, it's pouring here".
  const bare = judged.replace(FRAMING_OPENER, "").replace(DISCOURSE_MARKER, "");
  const instructs = STANDING_INSTRUCTION.test(judged);
  return rules.find((r) => !(instructs && MOOD_RULES.has(r.name)) && (r.test(judged, t) || (bare !== judged && bare.length > 0 && r.test(bare, t))));
}

export function dropReason(sentence: string, t: RuleThresholds): string | null {
  const rule = gateRule(sentence, t);
  if (rule) return rule.name;
  if (sentence.includes(REDACTION_MARK)) return "refused by the guard";
  return null;
}

function clean(sentence: string, t: RuleThresholds): string {
  // Fillers come in pairs too: "anyway fyi: …", "对了，另外…".
  let s = (businessAfterChatter(sentence, t) ?? correctionAfterPause(sentence, t) ?? sentence).replace(FRAMING_OPENER, "").replace(LEADING_FILLER, "").replace(LEADING_FILLER, "").replace(LEADING_FILLER_ZH, "").trim();
  s = s.replace(FRAMING_TAIL, (_m, en?: string, zh?: string) => en || zh || ".");
  // A cheer after a statement is no part of it ("迁移下周完成，大家加油！" keeps "迁移下周完成。").
  const cheer = CHEER_TAIL.exec(s);
  if (cheer && cheer.index > 0) s = `${s.slice(0, cheer.index).replace(/[\s,，;；～~!！]+$/u, "")}${cjkRatio(s) >= t.chineseRatio ? "。" : "."}`;
  if (s.length > 0) s = s[0]!.toUpperCase() + s.slice(1);
  return s;
}

/** Length as the granularity limit sees it: a CJK character carries about three English characters of meaning. */
export function weightedLength(text: string): number {
  return Math.round(text.length * (1 + 2 * cjkRatio(text)));
}

const CONTINUATION = /^(it|this|that|they|these|those|he|she|which|so|and|but|because|then|there)\b/i;

/**
 * Rule-based, offline extraction from one user turn: drops chit-chat, questions and momentary
 * remarks; keeps a short turn whole; splits a long one into standalone sentences.
 */
/**
 * A retraction takes back what the speaker just said: "scratch that, it was my cache", "no wait, ignore
 * me", "算了，没事了" — or asks that it not be kept: "pls don't put any of this down", "这段先别记". The
 * sentences before it in the turn are dropped; the sentence holding it stays
 * only when what follows the retraction is a new decision ("forget it, we'll keep the monthly
 * billing"), not the problem going away ("it's fine now", "好了").
 */
/** A request that what was said not be kept: what follows it in the sentence is a reason, never a new decision. */
/**
 * "不用了" after a thing in its clause says the thing is no longer used ("旧的 Jenkins 不用了", "那台打印机不用了"):
 * a value left behind, not a retraction. Alone ("算了，不用了"), after what was said or asked ("刚才那个问题不用了",
 * "上面说的不用了") or after only who speaks ("我不用了，谢谢") it takes back.
 */
const GIVES_UP_A_THING = /(?:^|[\s，,。；;！!？?～~])([^\s，,。；;！!？?～~]+?)\s*不用了$/u;
const TALK_REFERENT = /刚才|刚刚|上面|前面|之前|先前|问题|事情?儿?$|请求|那句|这句|我说的|你说的|^(?:我|你|您|咱|我们|你们|咱们)$/u;

function givesUpAThing(sentence: string, mark: RegExpMatchArray): boolean {
  if (mark[0] !== "不用了") return false;
  const object = GIVES_UP_A_THING.exec(sentence.slice(0, (mark.index ?? 0) + mark[0].length))?.[1];
  return object !== undefined && !TALK_REFERENT.test(object);
}

/** The retraction marks of a sentence, without a "不用了" that gives up a thing. */
function retractionsIn(sentence: string): RegExpMatchArray[] {
  return [...sentence.matchAll(RETRACTION)].filter((m) => !givesUpAThing(sentence, m));
}
const DONT_KEEP = /\b(?:don'?t|do not|no need to)\s+(?:(?:write|jot|note|put)\s+(?:that|this|it|any of (?:that|this))\s+down|(?:save|store|keep|record|log|remember|memori[sz]e)\s+(?:that|this|it|any of (?:that|this))\b(?!\s+(?:in|on|at|under|to|as|for|with)\b))|\boff the record\b|(?:先)?(?:别|不要|不用)(?:记(?!错|得|住|在|到|进)|(?:存|保存)(?=[了下这那它吧啊哈，,。！!…\s]|$))(?:下来)?/iu;
const RETRACTION = new RegExp(String.raw`\b(never ?mind|nevermind|(?<!\b(?:don'?t|do not|never|not|to)\s+)forget (it|that|about it)|(?<!\b(?:don'?t|do not|never|not|to)\s+)forget (?:about )?(?:the|that|this|my) [^,.;!?]{1,40}? (?:thing|issue|problem|question|bit|part|stuff|request)|forget (what|everything) (i|we) (just )?(said|asked|wrote|mentioned|typed|sent|pasted)|forget (?:that )?(?:i|we) (?:ever |just )?(?:said|wrote|typed|mentioned) (?:that|it|this)|scratch that|(?:scrap|strike|cancel|bin|kill)\s+(?:that|this|it)(?:\s+(?:idea|thought|plan))?|on second thoughts?|ignore (that|me|what i (just )?(said|asked))|disregard (that|my last)|nvm|false alarm)\b|算了|没事了|当我没说|收回(?:刚才|上一?条|那句)|别管了|不用了|(先)?不(用|必)?(查|看|弄|管|找)了|${DONT_KEEP.source}`, "giu");
// The problem went away or was put off: "it's fine now", "I figured it out", "got it going", "回头再说", "不用查快递了".
const RESOLVED =
  /^\W*(oh,?\s*)?(it|that|this|everything|all)?\s*('?s|is|was)?\s*(works?|working|fine|ok|okay|good|sorted|fixed|resolved|back)\b|\b(works|working|fixed|sorted|resolved) (now|itself|again)\b|\b(sorted|figured|worked|straightened)\s+(it|that|this|things)\s+out\b|\b(fixed|solved|sorted)\s+(it|that|this)\b|\bgot (it|that) (working|going|sorted)\b|\b(?:went|goes|has gone|'s gone) away\b|\b(?:disappeared|vanished|cleared up|sorted itself out|fixed itself|resolved itself)\b|(?:自己)?(?:消失|好)了|\b(?:it|that|this|they)(?:'s|'re|\s+is|\s+are)?\s+[a-z]+(?:s|ing)\s+(?:fine\s+|ok\s+)?(?:now|again)\W*$|好了|没事|没问题|能用了|可以了|正常了|搞定了|解决了|不(用|必|需要)?(查|找|看|弄|管)[\u4e00-\u9fff]{0,4}了|再说/iu;

/** What a retraction takes back, pointed at rather than said: "…the bit about the logs", "…my previous reply", "…上面那段". */
const POINTS_BACK = /^\W*(?:about|regarding|re:?)\s|^\W*(?:what|everything|all|anything)\s+(?:i|we|the user)\s+(?:just\s+)?(?:typed|said|wrote|asked|sent|mentioned|pasted)\b|^\W*(?:(?:ignore|disregard|forget|skip|drop)\s+)?(?:(?:the|my|that|this|your)\s+)?(?:last|previous|earlier|above|prior|first|second)\s+(?:\w+\s+)?(?:message|msg|one|question|bit|part|comment|point|thing|line|reply|answer|request|paragraph)s?\b|^\W*(?:the\s+)?(?:bit|part)\s+about\b|^\W*(?:上|前|刚才|刚刚|之前)(?:一|两|面|那)?(?:条|句|段|个)/iu;

/** Why the speaker takes it back, not a new decision: "I was just testing", "wrong window", "我就是随口一说". */
// Mixing two things up, not being sure, checking later are reasons too: "I got the two vans mixed up", "not
// certain, will verify on Monday", "跟另一台搞混了", "我回头再核实" (examples in no case file).
const EXCUSE = /^\W*(?:i\s+was\s+(?:just\s+)?(?:thinking|testing|typing|rambling|talking\s+to\s+myself|joking|kidding|venting)|(?:that\s+was\s+(?:meant\s+for\s+|for\s+)?|)wrong\s+(?:chat|window|tab|thread|person|channel|conversation|repo|project|ticket|doc|file)|my\s+(?:bad|mistake)|(?:i\s+|i've\s+)?(?:mixed|muddled|confused)\s+(?:it|them|that|this|those|things|the\s+\w+(?:\s+\w+)?)\s*(?:up)?|(?:i\s+)?got\s+(?:it|them|that|the\s+\w+(?:\s+\w+)?)\s+mixed\s+up|(?:i'?m\s+|i\s+am\s+)?not\s+(?:sure|certain)|(?:i'?ll|i\s+will|will|let\s+me)\s+(?:double-check|check|confirm|verify)\b)\b|^\W*(?:我)?(?:就是|只是)?(?:随口|随便)(?:一说|说说)|^\W*(?:发错了|打错了)|^\W*(?:我)?(?:跟|和|把)?[^，。,.]{0,16}?(?:搞混|记混|弄混|搞错|记错)了|^\W*(?:我)?(?:不(?:太)?确定|回头(?:再)?(?:确认|核实|查)|再(?:确认|核实|查)(?:一)?下)/iu;

/**
 * After a retraction, that things stay as they are: no new decision. Examples, in no case file: "we'll
 * stick with the current router", "leave it as it is", "维持原样", "还是照旧".
 */
const STATUS_QUO =
  /\b(?:keep(?:ing|s)?|stick(?:ing|s)?\s+with|stay(?:ing|s)?\s+(?:with|on|put)|leav(?:e|ing))\s+(?:it|them|things|everything|what\s+(?:we|i|the\s+user)\s+(?:have|has|had|'ve\s+got)|(?:the|our)\s+(?:current|existing|old|same)\b|as\s+(?:it|is))|\bno\s+change\b|\b(?:don'?t|do\s+not)\s+change\s+anything\b|\bas\s+(?:it|they)\s+(?:is|are)\b|维持(?:现状|原样|原来)|保持(?:现状|原样|不变)|照旧|(?:先|就)?不(?:改|换|动)了?(?=[，,。！!～~\s]|$)|还是用原来的/iu;

/**
 * The speaker takes back their own words, pointing at them ("pretend I never said it"), not a problem or a
 * question: a message that says nothing else takes back what the message before it stored. Examples, in no
 * case file: "ignore what I just said, I was thinking of the other repo", "我刚才说的不算，先别动".
 */
const TAKES_BACK_WORDS = new RegExp(
  String.raw`\b(?:forget|ignore|disregard)\s+(?:what|everything)\s+(?:i|we)\s+(?:just\s+)?(?:said|wrote|typed|sent|mentioned)|\bforget\s+(?:that\s+)?(?:i|we)\s+(?:ever\s+|just\s+)?(?:said|wrote|typed|mentioned)\s+(?:that|it|this)\b|${DONT_KEEP.source}|\b(?:ignore|forget|disregard)\s+that\b(?=\s*[,;.!—–-])|\bdisregard\s+(?:that|my\s+last)|\b(?:scratch|strike|scrap|cancel)\s+that\b|\b(?:i\s+)?take\s+(?:that|it)\s+back\b|当我没说|(?:我)?(?:刚才|刚刚|上一?条|前面)(?:说|发)的(?:不算|作废|别当真)|收回(?:刚才|上一?条|那句)?|撤回(?:刚才|上一?条|那句)`,
  "iu",
);

/**
 * Which of the things said is taken back, pointed at before the words that take it back: "the bit about
 * the loading bay, scratch that", "门禁那条先别记" (examples in no case file). Only the memories that hold
 * its words are taken back then.
 */
const POINTED_AT = /(?:\bthe\s+(?:bit|part|line)\s+about\s+([^,;.!?—–]{1,40}?)|(?<=^|[\s，,：:])([^\s，,。.!！?？：:]{1,12}?)(?:那|这)(?:条|句|段))\s*[,，—–-]?\s*$/iu;

/**
 * A message that only takes back what the speaker said before it — nothing before the marks, and after them
 * only why or that nothing changes — and the words that point at what it takes back ("门禁那条先别记" →
 * "门禁"; null when it points at no one thing). One reading of the sentences serves both.
 */
export function readTakeBack(text: string): { takesBack: boolean; pointer: string | null } {
  const no = { takesBack: false, pointer: null };
  if (!TAKES_BACK_WORDS.test(text)) return no;
  let pointer: string | null = null;
  for (const s of splitSentences(text)) {
    const found = [...s.matchAll(TAKE_BACK_MARKS)];
    const first = found[0];
    const last = found[found.length - 1];
    if (!first || !last) {
      if (!/[\p{L}\p{N}]/u.test(s) || EXCUSE.test(s) || STATUS_QUO.test(s)) continue;
      return no;
    }
    const head = s.slice(0, first.index ?? 0);
    const pointed = POINTED_AT.exec(head);
    if (pointer === null && pointed) pointer = (pointed[1] ?? pointed[2] ?? "").trim() || null;
    // "wait no, …", "等等，…": a pause or a no before the words that take it back.
    const before = head.replace(POINTED_AT, "").replace(/^(?:\W*(?:wait|hold\s+on|hang\s+on|no|nope|hmm+|um+|actually|oops|sorry|等等|等一下|不对|哦|诶|欸|哎|呃|嗯))+\W*$/iu, "");
    const after = s.slice((last.index ?? 0) + last[0].length).replace(/^[\s,，、.。:：;；!！…-]+/u, "");
    if (/[\p{L}\p{N}]/u.test(before) || (/[\p{L}\p{N}]/u.test(after) && !EXCUSE.test(after) && !STATUS_QUO.test(after))) return no;
  }
  return { takesBack: true, pointer };
}

/** The same kinds without the global flag, so a test keeps no lastIndex between sentences. */
const HAS_RETRACTION = new RegExp(RETRACTION.source, "iu");
/** Every mark of taking back, the speaker's own words or anything else, for reading what stands around them. */
const TAKE_BACK_MARKS = new RegExp(`${TAKES_BACK_WORDS.source}|${RETRACTION.source}`, "giu");

function afterRetraction(sentences: string[], t: RuleThresholds): string[] {
  let last = -1;
  sentences.forEach((s, i) => {
    if (HAS_RETRACTION.test(s) && retractionsIn(s).length > 0) last = i;
  });
  if (last < 0) return sentences;
  const sentence = sentences[last] as string;
  const marks = retractionsIn(sentence);
  const end = marks.length > 0 ? (marks[marks.length - 1]!.index ?? 0) + marks[marks.length - 1]![0].length : 0;
  const rest = sentence.slice(end).replace(/^[\s,，、.。:：;；!！…-]+/u, "");
  const saidBefore = last > 0 || /[\p{L}\p{N}]/u.test(sentence.slice(0, marks[0]?.index ?? 0));
  const decision =
    !DONT_KEEP.test(marks[marks.length - 1]?.[0] ?? "") &&
    rest.replace(/[\s\p{P}]/gu, "").length >= t.minStatementChars &&
    !RESOLVED.test(rest) &&
    !POINTS_BACK.test(rest) &&
    !EXCUSE.test(rest) &&
    // Things staying as they are is no news after an idea taken back in the same message; said alone, it takes
    // back an earlier turn's plan and is the decision that replaces it ("算了，还是保留原来的…").
    !(saidBefore && STATUS_QUO.test(rest));
  // Without a new decision, a sentence after the take-back that only gives its reason ("I'll check tomorrow") says nothing to keep.
  const following = sentences.slice(last + 1);
  return decision ? [sentence, ...following] : following.filter((s) => !EXCUSE.test(s));
}

/** Few words (Latin) and few characters (a CJK run is one "word"): a remark's tail or object rather than a statement of its own. */
function isShortRemark(s: string, t: RuleThresholds): boolean {
  return (s.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) <= t.shortRemarkWords && weightedLength(s) <= t.shortRemarkChars;
}

/** An interjection of feeling said as a sentence of its own ("Meh.", "Oof!", "哎。"). */
const BARE_INTERJECTION = /^\W*(ugh+|argh+|phew|sigh|meh|welp|yikes|oof|omg|oh no|damn|haha+|hehe+|lol|唉|哎|哎呀|嗐|天哪|呃)\W*$/iu;
const INTERJECTION_LED = /^\W*(ugh+|argh+|phew|sigh|meh|welp|yikes|oof|omg|oh no|damn|唉|哎|哎呀|嗐|天哪|呃)(?:\b|(?=[\s,，]))/iu;
/**
 * A bare interjection colours the short remark right after it as it would inside one sentence:
 * "Meh. Rain again." is "meh, rain again" (a mood), "哎。又堵车了。" is "哎，又堵车了". A longer sentence
 * after it is judged on its own, so a fact said after a sigh is still kept.
 */
function withInterjections(sentences: string[], t: RuleThresholds): string[] {
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i] as string;
    const next = sentences[i + 1];
    // Few words (Latin) and few characters (a CJK run is one "word"): the interjection's object rather than a statement of its own.
    const short = next !== undefined && isShortRemark(next, t);
    // A short cry with its object ("ugh, mondays.", "唉，周一。") colours the short remark after it the same way.
    const cry = BARE_INTERJECTION.test(s) || (INTERJECTION_LED.test(s) && (s.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) <= 3);
    if (cry && short) {
      out.push(`${s.replace(/[\s\p{P}]+$/u, "")}, ${next}`);
      i++;
    } else out.push(s);
  }
  return out;
}

/**
 * An acknowledgement that opens a Chinese sentence before a comma: "好的，…", "收到！…". A laugh is not one:
 * it colours what follows as a remark ("哈哈，周五啦"), as "lol, …" does in English.
 */
const COURTESY_ZH = /^(好的|好吧|行吧|嗯+|收到|谢谢|多谢|了解|明白)[，,！!～~\s]+(?=\S)/u;

/** The courtesy and what follows it are judged apart, so a fact after "好的，" is kept and the courtesy dropped. */
function withoutCourtesies(sentences: string[]): string[] {
  return sentences.flatMap((s) => {
    const m = COURTESY_ZH.exec(s);
    return m ? [m[1] as string, s.slice(m[0].length)] : [s];
  });
}

/** A fragment with no verb: a determiner or demonstrative and a few words ("the blue one", "that one from Tuesday", "蓝色那个"). */
const FRAGMENT_EN = /^\W*(?:the|a|an|my|our|that|this|those|these|which|one|or)\b(?![^.!?]*\b(?:is|are|was|were|has|have|had|do|does|did|will|would|can|could|should|must|got|gets|goes|went|runs?|uses?|needs?|[a-z]{3,}ed)\b)[^.!?]*$/i;
const FRAGMENT_ZH = /^[\u4e00-\u9fff]{0,6}(?:那个|这个|那台|那把|那条|那件|那款|那根|那只|那本|的那个)[。！!～~\s]*$/;

/** A laugh that closes a sentence: a word of laughing or a laughing face. */
const LAUGH_END = /(?:^|\s)(?:lol|lmao|rofl|ha(?:ha)+|he(?:he)+)\W*$|哈{2,}\W*$|[\u{1F602}\u{1F923}\u{1F606}\u{1F639}\u{1F605}]\W*$/iu;

/**
 * A fragment right after a question finishes the question: "anyone seen my tape measure? the yellow one",
 * "谁拿了我的充电线？白色那根". It is asked, not stated, and goes where the question goes. So does the answer
 * to one's own question when a laugh closes it and it carries no value: a joke's punchline ("why was the
 * database lonely? it lost all its relations 😂", "为什么键盘总是很累？因为它一直被敲哈哈哈").
 */
function withQuestionTails(sentences: string[], t: RuleThresholds): string[] {
  const out: string[] = [];
  for (const s of sentences) {
    const prev = out[out.length - 1];
    const short = isShortRemark(s, t);
    const punchline = LAUGH_END.test(s) && !carriesValue(s);
    if (prev !== undefined && /[?？]\s*$/.test(prev) && (punchline || (short && (FRAGMENT_EN.test(s) || FRAGMENT_ZH.test(s))))) out[out.length - 1] = `${prev.replace(/[?？]\s*$/, "")}, ${s}?`;
    else out.push(s);
  }
  return out;
}

/**
 * A short sentence that only rules out a value ("No more Travis CI!", "MongoDB 也不用了。") says what the next
 * sentence replaces: the two are one statement, so the old value and the new one are judged together.
 */
function withReplacement(sentences: string[], t: RuleThresholds): string[] {
  const out: string[] = [];
  for (let i = 0; i < sentences.length; i++) {
    const s = sentences[i] as string;
    const next = sentences[i + 1];
    const bare = isShortRemark(s, t);
    if (next !== undefined && bare && oldValues(s).length > 0 && !announcesChange(s)) {
      out.push(`${s} ${next}`);
      i++;
    } else out.push(s);
  }
  return out;
}

export function extractRules(text: string, options: ExtractOptions): ExtractedItem[] {
  const t = options.rules ?? DEFAULT_RULES;
  const added = new Set<string>();
  const kept = withReplacement(
    afterRetraction(withQuestionTails(withInterjections(withoutCourtesies(splitSentences(text)), t), t), t)
      .filter((s) => dropReason(s, t) === null)
      .map((s) => {
        const cleaned = clean(s, t);
        if (opensAsAddition(s)) added.add(cleaned);
        return cleaned;
      })
      .filter((s) => s.length > 0),
    t,
  );
  if (kept.length === 0) return [];

  // Each unit with the sentence it opens with: an addition is said by its first sentence.
  const units: Array<{ text: string; first: string }> = [];
  const total = weightedLength(kept.join(" "));
  const oneType = new Set(kept.map(classifyType)).size === 1;
  if (total <= options.maxMemoryChars && oneType) {
    units.push({ text: kept.join(" "), first: kept[0]! });
  } else {
    for (const s of kept) {
      const prev = units[units.length - 1];
      if (prev !== undefined && CONTINUATION.test(s) && weightedLength(`${prev.text} ${s}`) <= options.maxMemoryChars) prev.text = `${prev.text} ${s}`;
      else units.push({ text: s, first: s });
    }
  }

  return units.map(({ text: unit, first }) => {
    const subject = inferSubject(unit, options.speaker);
    const thirdParty = subject.startsWith("third-party:");
    const hedged = isHedged(unit);
    const confidence = hedged ? t.hedgedConfidence : thirdParty ? t.thirdPartyConfidence : options.defaultConfidence;
    const content = standalone(unit, options.speaker, t);
    return { content, type: classifyType(unit), subject, confidence, validUntil: parseValidUntil(unit, options.now), ...(added.has(first) ? { addition: true } : {}) };
  });
}

/**
 * The naive baseline the seed warns about: the whole turn, as said, is one memory (kept as an
 * event so nothing supersedes it). For benchmarks and ablations, not for users.
 */
export function extractVerbatim(text: string, speaker: string | null, confidence: number): ExtractedItem[] {
  const content = text.trim();
  if (content.length === 0) return [];
  return [{ content: spokenBy(speaker, content), type: "event", subject: speaker ?? "user", confidence, validUntil: null }];
}
