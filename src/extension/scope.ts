import { isAbsolute, relative } from "node:path";

/** A workspace folder and the memory scope of its project. */
export interface FolderScope {
  /** Absolute file-system path of the folder. */
  path: string;
  name: string;
  scope: string;
}

function contains(folder: string, file: string): boolean {
  const rel = relative(folder, file);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The folder recall defaults to: the one holding the active editor's file (the deepest, for nested
 * folders), else the first folder; null without folders.
 */
export function activeFolder(folders: FolderScope[], activeFile: string | undefined): FolderScope | null {
  if (folders.length === 0) return null;
  if (activeFile) {
    const holders = folders.filter((f) => contains(f.path, activeFile)).sort((a, b) => b.path.length - a.path.length);
    if (holders[0]) return holders[0];
  }
  return folders[0] ?? null;
}

/** The scope of a window without folders: memories still work, in a scope of their own. */
export const NO_FOLDER_SCOPE = "project:no-folder";
