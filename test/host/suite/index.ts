// The mocha entry VS Code calls inside the extension host (extensionTestsPath): run() resolves when
// every *.host.js test passed and rejects otherwise (VS Code turns that into the exit code).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import Mocha from "mocha";

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: "bdd", timeout: 180_000, color: false, reporter: "spec" });
  const grep = process.env.HINDSIGHT_HOST_GREP;
  if (grep) mocha.grep(grep);
  for (const f of readdirSync(__dirname).filter((n) => n.endsWith(".host.js")).sort()) mocha.addFile(join(__dirname, f));
  return new Promise((ok, fail) => {
    mocha.run((failures) => (failures > 0 ? fail(new Error(`${failures} extension-host test(s) failed`)) : ok()));
  });
}
