import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import type { MemoryService } from "../memoryService.js";

export interface SuiteReport {
  file: string;
  passed: number;
  failed: number;
  cases: Array<{ id: string; category: string; pass: boolean; failures: string[] }>;
}

/** The cases files of the workspace: every eval/*.json (the project's own regression cases). */
async function workspaceCaseFiles(service: MemoryService): Promise<string[]> {
  const files: string[] = [];
  for (const f of service.folders()) {
    try {
      for (const name of await readdir(join(f.path, "eval"))) if (name.endsWith(".json") && !name.startsWith("baseline")) files.push(join(f.path, "eval", name));
    } catch {
      // no eval folder
    }
  }
  return files;
}

/** Per-category pass counts, for the summary. */
export function byCategory(cases: SuiteReport["cases"]): Array<{ category: string; passed: number; total: number }> {
  const m = new Map<string, { passed: number; total: number }>();
  for (const c of cases) {
    const e = m.get(c.category) ?? { passed: 0, total: 0 };
    e.total++;
    if (c.pass) e.passed++;
    m.set(c.category, e);
  }
  return [...m.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([category, e]) => ({ category, ...e }));
}

/** Hindsight: Run Memory Regression Suite — a cases file (CASES.md format) on scratch stores of the server; the real store is untouched. */
export async function runRegressionSuite(service: MemoryService, args: { path?: string } = {}): Promise<SuiteReport | undefined> {
  let file = args.path;
  if (!file) {
    const found = await workspaceCaseFiles(service);
    const pickFile = "$(folder-opened) Pick a cases file…";
    const choice = found.length === 1 ? found[0] : await vscode.window.showQuickPick([...found, pickFile], { title: "Run which regression suite?" });
    if (!choice) return undefined;
    if (choice === pickFile) {
      const [uri] = (await vscode.window.showOpenDialog({ filters: { "Cases file": ["json"] }, canSelectMany: false })) ?? [];
      if (!uri) return undefined;
      file = uri.fsPath;
    } else file = choice;
  }
  const body = await readFile(file, "utf8");
  const client = await service.client();
  const report = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Hindsight: running ${file.split(/[\\/]/).pop()}` },
    () => client.text("POST", "/eval", body),
  );
  const r = JSON.parse(report) as Omit<SuiteReport, "file">;
  const log = service.log;
  log.info(`regression suite ${file}: ${r.passed} passed, ${r.failed} failed`);
  for (const c of byCategory(r.cases)) log.info(`  ${c.category}: ${c.passed}/${c.total}`);
  for (const c of r.cases.filter((x) => !x.pass)) log.warn(`  FAIL ${c.id} (${c.category}): ${c.failures.join("; ")}`);
  const total = r.passed + r.failed;
  const say = r.failed === 0 ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  void say(`Hindsight: ${r.passed}/${total} memory regression cases passed.`, "Show Logs").then((pick) => {
    if (pick) log.show();
  });
  return { file, ...r };
}
