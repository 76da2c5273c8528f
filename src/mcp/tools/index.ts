import { memoryForgetTool } from "./memoryForget.js";
import { memoryIngestTool } from "./memoryIngest.js";
import { memoryRecallTool } from "./memoryRecall.js";
import { memorySummarizeTool } from "./memorySummarize.js";
import { memoryWriteTool } from "./memoryWrite.js";
import type { AnyToolDefinition } from "./types.js";

export { memoryForgetTool, memoryIngestTool, memoryRecallTool, memorySummarizeTool, memoryWriteTool };
export type { AnyToolDefinition, ToolDefinition, ToolHints, ToolResult } from "./types.js";

/** Every memory tool, in the order clients list them. */
export const MEMORY_TOOLS: readonly AnyToolDefinition[] = [memoryRecallTool, memoryWriteTool, memoryIngestTool, memorySummarizeTool, memoryForgetTool];
