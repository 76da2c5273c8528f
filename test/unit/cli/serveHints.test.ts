import { strict as assert } from "node:assert";
import { PUBLISHED_PACKAGE, serveHints } from "../../../src/cli/commands/serveHints.js";

describe("serveHints (what `hindsight serve` prints next)", () => {
  const base = { url: "http://127.0.0.1:8765", scope: "project:github.com/acme/shop", folder: "/home/ana/shop", cli: "hindsight", tokenFile: "/data/server-token", teamTokens: false };

  it("says the scope is the starting folder's and how to choose another", () => {
    const text = serveHints({ ...base, scopeFromFolder: true });
    assert.match(text, /scope +project:github\.com\/acme\/shop: the folder this server started in \(\/home\/ana\/shop/);
    assert.match(text, /--scope project:NAME/);
  });

  it("gives runnable commands: the CLI, an npx form that works anywhere, and agent configs reading the token file", () => {
    const text = serveHints({ ...base, scopeFromFolder: false, cli: "node /opt/hindsight/bin/hindsight.js" });
    assert.match(text, /node \/opt\/hindsight\/bin\/hindsight\.js remember "/);
    assert.ok(text.includes(`npx -y ${PUBLISHED_PACKAGE} <command>`));
    assert.ok(text.includes('--header "Authorization: Bearer $(cat /data/server-token)"'));
    assert.ok(text.includes('"url": "http://127.0.0.1:8765/mcp"'));
  });

  it("does not invent a token file when the token came from a flag or a team tokens file", () => {
    assert.ok(!serveHints({ ...base, scopeFromFolder: false, tokenFile: null }).includes("$(cat"));
    assert.match(serveHints({ ...base, scopeFromFolder: false, tokenFile: null, teamTokens: true }), /a token from the tokens file/);
  });
});
