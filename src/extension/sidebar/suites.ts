import { readdir, readFile, stat } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import type { Suite } from "../../protocol/model.js";

/** The largest cases file the server's POST /eval accepts. */
export const SUITE_MAX_BYTES = 2 * 1024 * 1024;

/** The regression suites the Tests view offers, and how to read one. */
export interface SuiteSource {
  list(): Promise<Suite[]>;
  /** The JSON text of a cases file. */
  read(path: string): Promise<string>;
  /** Asks the user for a cases file (a file dialog); null when cancelled. Absent: no picking. */
  pick?(): Promise<string | null>;
}

function casesIn(text: string): number | null {
  try {
    const json = JSON.parse(text) as { cases?: unknown };
    return Array.isArray(json.cases) ? json.cases.length : null;
  } catch {
    return null;
  }
}

/** A suite entry for any file (a picked one): labelled by its name. */
export function suiteForFile(path: string, cases: number | null = null): Suite {
  return { id: path, label: basename(path), path, cases };
}

/**
 * The cases files in the `eval/` folder of each workspace root (`*.json` whose top level has a
 * `cases` array: baselines and other JSON are left out).
 */
export class EvalFolderSuites implements SuiteSource {
  constructor(
    private readonly roots: () => readonly string[],
    readonly pick?: () => Promise<string | null>,
  ) {}

  async list(): Promise<Suite[]> {
    const roots = this.roots();
    const suites: Suite[] = [];
    for (const root of roots) {
      const dir = join(root, "eval");
      let names: string[];
      try {
        names = (await readdir(dir)).filter((n) => n.endsWith(".json")).sort();
      } catch {
        continue;
      }
      for (const name of names) {
        const path = join(dir, name);
        try {
          if ((await stat(path)).size > SUITE_MAX_BYTES) continue;
          const cases = casesIn(await readFile(path, "utf8"));
          if (cases === null) continue;
          const rel = relative(root, path).split("\\").join("/");
          suites.push({ id: path, label: roots.length > 1 ? `${basename(root)}/${rel}` : rel, path, cases });
        } catch {
          // unreadable: not offered
        }
      }
    }
    return suites;
  }

  async read(path: string): Promise<string> {
    const size = (await stat(path)).size;
    if (size > SUITE_MAX_BYTES) throw new Error(`${basename(path)} is ${Math.round(size / 1024)} KiB: the server runs cases files of at most 2 MiB`);
    return readFile(path, "utf8");
  }
}
