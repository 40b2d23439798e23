/**
 * Workspace paths (decisions.md: Assets, folders, files). A path names a file or folder by the
 * names of its folders, joined with `/`. A path that starts with `/` starts at the workspace's
 * root; any other starts at a folder (a template's stylesheets: the template's folder; a url() in
 * a stylesheet: the stylesheet's folder). `.` is the folder itself and `..` its parent; going
 * above the root is an error, not the root again.
 */

/** Folder nesting: at most this many levels (spec: nested at most 20 levels). */
export const MAX_FOLDER_DEPTH = 20;

/** Names of folders (80) and files (120), and what no name may hold. */
export const MAX_FOLDER_NAME = 80;
export const MAX_FILE_NAME = 120;

/** Why a name is refused, or undefined when it is fine. */
export function nameProblem(name: string, max: number): string | undefined {
  if (name.length < 1 || name.length > max) return `must be 1 to ${max} characters`;
  if (name === "." || name === "..") return "cannot be . or ..";
  if (/[/\\]/.test(name)) return "cannot contain / or \\";
  if (/[\u0000-\u001f\u007f]/.test(name)) return "cannot contain control characters";
  if (name.trim() !== name) return "cannot start or end with spaces";
  return undefined;
}

/**
 * The names from the root to what `path` names, seen from the folder at `from` (its names from the
 * root; [] is the root). Null when the path leaves the root or is empty.
 */
export function resolvePath(from: readonly string[], path: string): string[] | null {
  const absolute = path.startsWith("/");
  const out = absolute ? [] : [...from];
  const parts = path.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.length === 0) return null;
  for (const part of parts) {
    if (part === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(part);
  }
  return out;
}

/** Names joined as a path from the root, e.g. `brand/print.css`. */
export function joinPath(names: readonly string[]): string {
  return names.join("/");
}

/** The folder part of a file's names (all but the last). */
export function folderOf(names: readonly string[]): string[] {
  return names.slice(0, -1);
}
