import { cssRefs, isWorkspacePath, type CssRef } from "./css-urls";

/**
 * The workspace path a stylesheet's url() or @import names, as file usage and template rendering
 * both read it: the query and fragment are dropped (`font.eot?#iefix`) and percent-escapes decoded
 * (`Inter%20Bold.woff2` names `Inter Bold.woff2`). Undefined for data:, absolute and fragment-only
 * URLs, which name no workspace file.
 */
export function referencePath(url: string): string | undefined {
  if (!isWorkspacePath(url)) return undefined;
  const bare = url.replace(/[?#].*$/s, "");
  if (bare === "") return undefined;
  try {
    return decodeURIComponent(bare);
  } catch {
    return bare; // a stray % is a character of the name
  }
}

/** A stylesheet's references that name workspace paths, each with the path it names. */
export function workspaceReferences(css: string): (CssRef & { path: string })[] {
  const out: (CssRef & { path: string })[] = [];
  for (const ref of cssRefs(css)) {
    const path = referencePath(ref.url);
    if (path !== undefined) out.push({ ...ref, path });
  }
  return out;
}
