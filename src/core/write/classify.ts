import type { MemoryType } from "../model/memory.js";
import { announcesChange, correctsEarlier, oldValues, progressFrame } from "./slot.js";

/** Ordered cue lists: the first kind whose cue matches wins. Names are what tests and docs refer to. */
const TASK_STATE: Array<{ test(text: string): boolean }> = [
  /\bstep\s+\d+\s*(of|\/)\s*\d+\b/i,
  /\b(is|are)\s+(done|finished|completed|in progress|blocked|half done)\b/i,
  /\b(todo|wip|next step|remaining steps?)\b/i,
  // A count against a total or a share done is a progress report: "11 of 40 suites ported", "about 60% through".
  { test: countOfTotal },
  /\b\d{1,3}\s*%\s*(done|complete|completed|finished|through|migrated|there)\b/i,
  // A share reached by now is how far a task has got: "the re-index is already past 60%", "translation now at 30%",
  // "数据回填做到 70% 了", "完成了约 40%". A share of something else ("15% off", "CPU at 90%") says no "now" or "done".
  /\b(?:now|currently|already)\s+(?:at|up\s+to|past|over)\s+(?:about\s+|around\s+|roughly\s+|~)?\d{1,3}\s*%|\b(?:at|past|over)\s+(?:about\s+|around\s+|~)?\d{1,3}\s*%\s+(?:now|already)\b/i,
  /(?:完成|做完|搞完|弄完|跑完|进行)了?\s*(?:大约|约|差不多)?\s*\d{1,3}\s*%|(?:做|搞|弄|跑|导|迁|写|推进)到(?:了)?\s*\d{1,3}\s*%/,
  // A staged release reaching a share, or everyone it was meant for, is how far the rollout has got: "the canary is at
  // 5% of pods", "deployed to every region now", "推到了两成设备", "已经全量". A share that is a metric ("error rate up to 3%") is reached by no release verb.
  /\b(?:roll(?:ed|ing)?\s+out|ramp(?:ed|ing)?(?:\s+up)?|canar(?:y|ied)|phased|staged)\b[^.;]{0,30}?\b(?:to|at|for)\s+(?:about\s+|around\s+|~)?\d{1,3}\s*%|\b(?:fully\s+(?:rolled\s+out|deployed|released|shipped|live)|(?:rolled\s+out|deployed|released|shipped|live)\s+(?:to|for|on|in)\s+(?:everyone|everybody|all\s+(?:of\s+)?(?:the\s+|our\s+)?\w+|every\s+\w+|the\s+whole\s+\w+))\b/i,
  /(?:灰度|放量|推送|铺开|开放|覆盖)[^，。；,;]{0,8}?(?:到|至)(?:了)?\s*\d{1,3}\s*%|全量(?:推送|发布|上线|开放)?(?:完成|了|结束)/,
  // Waiting on someone or something, or blocked by it, is where a task stands: "held up by the vendor", "pending QA".
  /\b(waiting (on|for)|blocked (on|by)|held up by|stuck on|pending|awaiting)\b/i,
  // Not done yet is a state too: "the invites haven't gone out yet", "还没发出去".
  /\b(has|have|is|are)(n't| not)\s+(been\s+)?\w+\s+(out\s+|in\s+|up\s+)?yet\b|\bnot\s+yet\b/i,
  // A total and the share done, Chinese order: "8 个接口已经对完 5 个", "12 张表迁了 9 张".
  /\d+\s*[个张条项份台篇页题道首部课集章节门][^，。,]{0,16}?\d+\s*[个张条项份台篇页题道首部课集章节门]/,
  /第\s*\d+\s*步|已完成|进行中|还剩|进度|还没|尚未|卡在|等待|待审|在等/,
  // How far through a sequence: "finished week 7 of the plan", "done with chapter 4", "练完第九周", "剪到第 12 集".
  /\b(finished|completed|done with|through|wrapped|up to|reached)\s+(week|chapter|episode|lesson|module|level|stage|day|unit|round|sprint)\s+\d+\b/i,
  /[完到]\s*第\s*[\d一二两三四五六七八九十百]+\s*[周章集课关轮天期讲节]/,
];

/**
 * A count against its total ("11 of 40 suites", "7/12", "完成 7／12"). A count never exceeds its total, so
 * "26/09" or "31/1" is a date, not progress; a time ("3/4 pm") is neither.
 */
function countOfTotal(text: string): boolean {
  for (const m of text.matchAll(/\b(\d+)\s*(?:of|out of|\/|／)\s*(?:the\s+)?(\d+)\b(?!\s*(?:am|pm|[ap]\.m\.))/gi)) {
    if (Number(m[1]) <= Number(m[2])) return true;
  }
  return false;
}

/**
 * A status line labelled as one: "Billing cutover status: …", "前端重构进展：…" — unless what follows the
 * label is a value that changed ("Search update: Algolia is gone, Meilisearch took over"), which is a fact.
 */
const LABELLED_STATUS = [/^[^:：\n]{0,40}\b(progress|status|update)\s*[:：]/i, /^[^:：\n]{0,20}(进度|进展|更新|状态)[^:：\n]{0,4}[:：]/];

const PREFERENCE = [
  /\b(i|we)\s+(really\s+)?(prefer|like|love|enjoy|want|would rather|favou?r)\b/i,
  /\b(i|we)'d\s+(much\s+)?rather\b/i,
  /\bprefer(s|red)?\b/i,
  /\bplease\s+(always\s+)?(address|contact|respond|reply|answer|write|talk|send|use|call|email|text)\b/i,
  /\b(reply|respond|answer)\s+(to me\s+)?in\s+[A-Z][a-z]+\b/,
  /喜欢|偏好|倾向|希望|宁愿|请用|用中文|用英文|回复我/,
];

// "Can't wait" is eagerness, not a rule ("can't wait for the holidays").
const CONSTRAINT = [
  /^(never|always|don't|do not|must|mustn't|avoid|no)\b/i,
  /\b(must|must not|mustn't|never|is required|are required|required to|needs? to|need(s)?\s+(at least\s+)?(one|two|three|\d+)\b|not allowed|forbidden|prohibited|may not|cannot(?!\s+wait\b)|can't(?!\s+wait\b))\b/i,
  /\b(keep|stay|limit)\b.{0,40}\b(under|below|within|at most|less than|no more than)\b/i,
  /禁止|必须|不要|不能|不允许|不得|不超过|务必|一律|只能|不准|严禁/,
  // A bound that must be met is a rule: "每单至少得两人复核", "上传最多只能 20MB" — as "at least two approvals are required".
  /(?:至少|最少|起码)(?:要|得|需要|需)|(?:最多|至多)(?:只)?(?:能|可以)/,
];

const EVENT = [
  /\b(yesterday|last (week|weekend|month|year|night|time)|ago|earlier today|this morning)\b/i,
  /\b(happened|failed|broke|crashed|went|visited|met|moved|attended|finished|started|won|lost|bought|received|incident|outage)\b/i,
  /昨天|前天|上周|上个月|去年|刚才|发生|反馈|故障|事故/,
];

/**
 * A resultative verb says a step of work is finished: "接口联调完了", "图纸画好了", "搞定了" — unless
 * the sentence is about a change of value ("看完医生，药换成了…"), where the finished part is only context.
 */
const FINISHED_STEP = /(?![好就太很真挺])[\u4e00-\u9fff](完|好)了|搞定|弄完/;

/** Best-guess kind of a statement when the caller did not say. */
export function classifyType(text: string): MemoryType {
  const changesValue = announcesChange(text) || oldValues(text).length > 0;
  if (TASK_STATE.some((r) => r.test(text)) || progressFrame(text) !== null || ((FINISHED_STEP.test(text) || LABELLED_STATUS.some((r) => r.test(text))) && !changesValue)) return "task_state";
  if (PREFERENCE.some((r) => r.test(text))) return "preference";
  if (CONSTRAINT.some((r) => r.test(text))) return "constraint";
  // A statement naming the value it replaces states what holds now, not something that happened ("moved from A to B").
  if (oldValues(text).length === 0 && !correctsEarlier(text) && EVENT.some((r) => r.test(text))) return "event";
  return "fact";
}

const THIRD_PARTY_EN =
  /^(?:[A-Za-z]+,?\s+)?(my|our|the user'?s)\s+(?:old\s+|former\s+|best\s+)?(friend|friends|buddy|buddies|mate|pal|colleague|coworker|co-worker|classmate|flatmate|housemate|wife|husband|partner|girlfriend|boyfriend|fianc[eé]e?|brother|sister|mom|mum|mother|dad|father|uncle|aunt|nephew|niece|grandma|grandpa|grandmother|grandfather|in-laws?|boss|manager|neighbou?r|son|daughter|cousin|roommate|teammate|kids?|parents?)\b/i;
const THIRD_PARTY_ZH = /^(?:[^，。]{0,4})?(?:我|用户)(的)?(朋友|同事|老婆|老公|妻子|丈夫|哥哥|姐姐|弟弟|妹妹|妈妈|爸爸|父母|领导|老板|邻居|孩子|儿子|女儿|室友|同学|(?:表|堂)(?:哥|姐|弟|妹)|叔叔|舅舅|姑姑|阿姨|姨妈|爷爷|奶奶|外公|外婆|男朋友|女朋友|对象|发小|哥们|闺蜜|(?:老|前)(?:同学|同事))/;

// Someone named by where they sit or live relative to the speaker: "对门的刘阿姨", "楼下张老板", "隔壁组的小陈".
// A group named the same way is another party too: "隔壁实验室…", "楼上那家公司…" (examples in no case file).
const NEARBY_PERSON_ZH = /^(?:隔壁|对门|楼上|楼下|邻座)(?:班|组|部门|公司)?的?([\u4e00-\u9fff]{1,3}?(?:老师|同事|同学|阿姨|叔叔|大哥|大姐|老板|师傅|医生)|小[\u4e00-\u9fff]|老[\u4e00-\u9fff])|^(?:隔壁|对门|楼上|楼下)(?:那个|那家)?([\u4e00-\u9fff]{0,3}(?:组|实验室|团队|公司|部门|单位|工作室|店|医院|学校))/;

/** The person a statement is about when that is someone the speaker names by relation ("my cousin …", "the user's boss …", "我邻居…", "隔壁王老师…"), or null. */
export function thirdParty(text: string): string | null {
  const third = text.match(THIRD_PARTY_EN) ?? text.match(THIRD_PARTY_ZH);
  if (third) return (third[2] ?? third[0]).toLowerCase();
  const near = text.match(NEARBY_PERSON_ZH);
  return near ? (near[1] ?? near[2] ?? null) : null;
}

/** Who or what a statement is about: a third party, the speaker ("user"), or the project. */
export function inferSubject(text: string, speaker: string | null): string {
  const third = thirdParty(text);
  if (third) return `third-party:${third}`;
  if (/\b(i|i'm|i've|i'd|me|my|mine)\b/i.test(text) || /我/.test(text)) return speaker ?? "user";
  if (/\b(we|our|us|this (project|repo|repository|codebase|service|app))\b/i.test(text) || /我们|这个?项目|本项目/.test(text)) return "project";
  return speaker ?? "general";
}

/** Subjects that name no particular thing: contradiction needs topic similarity, not subject equality. */
export function isGenericSubject(subject: string): boolean {
  return subject === "" || subject === "user" || subject === "project" || subject === "general";
}

const HEDGES = /\b(maybe|perhaps|probably|i think|i guess|i believe|not sure|might be|could be|possibly)\b|可能|好像|大概|也许|应该是|不确定|我猜/i;

export function isHedged(text: string): boolean {
  return HEDGES.test(text);
}
