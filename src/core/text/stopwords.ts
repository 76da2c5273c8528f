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
  ("reminder remember again also still just now currently anyway btw note fyi restate 再说 说一 一下 提醒 醒一 强调 调一 还是 另外 现在").split(
    /\s+/,
  ),
);

/** CJK bigrams that only mark questions or grammar. */
export const CJK_STOP_BIGRAMS = new Set(
  ("什么 是什 么时 怎么 么样 哪些 哪个 多少 是不 不是 有没 没有 的是 是多 少？ 一下 可以 请问 吗？ 呢？ 么？ 了吗 么处 么方 方式").split(/\s+/),
);
