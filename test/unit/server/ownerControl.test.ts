import { strict as assert } from "node:assert";
import { encodeLine, lineReader, parseCommand } from "../../../src/server/ownerControl.js";

const START = { type: "start", storePath: "/data/store", port: 0, allowDownload: false, cacheDir: "/data/models", config: {}, tokens: ["a-token-of-sixteen-plus"], llm: null };

describe("the owner control channel (extension ↔ owner process)", () => {
  it("reads a start line and keeps only the options given", () => {
    const c = parseCommand(JSON.stringify({ ...START, modelDir: "/models", llm: { url: "http://127.0.0.1:9/v1", model: "m", apiKey: "k" } }));
    assert.deepEqual(c, { ...START, modelDir: "/models", llm: { url: "http://127.0.0.1:9/v1", model: "m", apiKey: "k" } });
    assert.equal("modelId" in c, false);
  });

  it("names the field that is wrong", () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ ...START, port: 70000 }, /^Error: port:/],
      [{ ...START, port: "8765" }, /^Error: port:/],
      [{ ...START, storePath: "" }, /^Error: storePath:/],
      [{ ...START, allowDownload: "no" }, /^Error: allowDownload:/],
      [{ ...START, tokens: ["short"] }, /^Error: tokens:/],
      [{ ...START, llm: { url: "x" } }, /^Error: llm:/],
      [{ ...START, llm: { url: "x", model: "m", apiKey: 3 } }, /^Error: llm\.apiKey:/],
      [{ type: "config", config: [] }, /^Error: config:/],
      [{ type: "reboot" }, /^Error: type:/],
      [[1, 2], /JSON object/],
    ];
    for (const [line, field] of bad) assert.throws(() => parseCommand(JSON.stringify(line)), field, JSON.stringify(line));
    assert.throws(() => parseCommand("{not json"), /not a JSON line/);
  });

  it("splits a stream into lines however the chunks fall", () => {
    const lines: string[] = [];
    const feed = lineReader((l) => lines.push(l));
    const text = encodeLine({ type: "llm", llm: null }) + encodeLine({ type: "config", config: { recall: { defaultK: 3 } } });
    for (const piece of [text.slice(0, 5), text.slice(5, 31), text.slice(31)]) feed(Buffer.from(piece));
    feed("\n\n");
    assert.deepEqual(lines.map((l) => parseCommand(l).type), ["llm", "config"]);
  });
});
