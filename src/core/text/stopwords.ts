/** Function words that carry no topic; removed before lexical matching and value-change checks. */
export const EN_STOPWORDS = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being am " +
    "do does did doing done have has had having i me my mine myself you your yours we us our ours they them their he him his she her " +
    "it its this that these those there here what which who whom whose when where why how whats wheres " +
    "can could should would will shall may might must not no yes so too very just also only than such some any all each every " +
    "up down out over under again further once both few more most other own same s t don now please ok okay " +
    "let lets get got gets go going goes went make made tell told know say said says like really actually thing things"
  ).split(/\s+/),
);

/** Discourse fillers that do not change what a statement says ("Reminder: ...", "再说一下"). */
export const FILLER_TOKENS = new Set(
  ("reminder remember again also still just now currently anyway btw note fyi restate 再说 提醒 强调 另外 顺便 补充").split(
    /\s+/,
  ),
);

/** Chinese function words and characters: grammar, pronouns, question words, and references to the memory owner (用户/客户: every memory of a user scope is about them), no topic. */
export const CJK_STOPWORDS = new Set(
  (
    "什么 怎么 怎样 怎么样 为什么 哪些 哪个 哪里 多少 是否 是不是 有没有 可以 请问 一下 我们 你们 他们 的是 就是 还是 以后 现在 目前 已经 " +
    "这个 那个 一个 这些 那些 之前 时候 的话 一些 应该 需要 用户 客户 " +
    "的 了 吗 呢 吧 啊 呀 是 在 有 和 与 及 或 我 你 他 她 它 们 这 那 都 也 就 还 又 请 把 被 给 对 从 到 于 以 之 而 个 么 哪 谁 啥 要 会 能 可 不 没 很 挺 太 更 最 再 才 让 用 说 得 地 着 过"
  ).split(/\s+/),
);
