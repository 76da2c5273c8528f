import * as vscode from "vscode";
import type { LlmClient, LlmRequest } from "../core/ports.js";

/**
 * An LlmClient over the user's Copilot models (vscode.lm). VS Code asks the user once for consent
 * on the first request; a refusal or an unavailable model is an error the engine turns into the
 * rule extractor, and the ingest result names the reason.
 */
export class CopilotLlm implements LlmClient {
  readonly id: string;

  constructor(private readonly model: vscode.LanguageModelChat) {
    this.id = `vscode.lm:${model.vendor}/${model.id}`;
  }

  async complete(request: LlmRequest): Promise<string> {
    const cancel = new vscode.CancellationTokenSource();
    const timer = request.timeoutMs ? setTimeout(() => cancel.cancel(), request.timeoutMs) : undefined;
    try {
      const schema = request.jsonSchema ? `\n\nAnswer with JSON only, following this JSON schema:\n${JSON.stringify(request.jsonSchema)}` : "";
      // The chat API has no system role: the instructions go first in the user message.
      const messages = [vscode.LanguageModelChatMessage.User(`${request.system}${schema}\n\n${request.user}`)];
      const response = await this.model.sendRequest(messages, { justification: "Hindsight extracts durable facts from your conversations to remember them for your agents." }, cancel.token);
      let text = "";
      for await (const part of response.text) text += part;
      return text;
    } finally {
      if (timer) clearTimeout(timer);
      cancel.dispose();
    }
  }
}

/** The first Copilot chat model, preferring small fast families; null when none is available. */
export async function pickCopilotModel(): Promise<vscode.LanguageModelChat | null> {
  const models = await vscode.lm.selectChatModels({ vendor: "copilot" });
  if (models.length === 0) return null;
  const preferred = ["gpt-4o-mini", "gpt-4.1-mini", "gpt-5-mini", "claude-3.5-haiku"];
  for (const family of preferred) {
    const m = models.find((x) => x.family === family);
    if (m) return m;
  }
  return models[0] ?? null;
}
