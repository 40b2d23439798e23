// The editor's image picker over composition.json (root only): which image components there are
// and where, and the text after picking an asset for one of them or adding a new one. Pure: the
// browser imports it. The text is written back with two-space indents, as the editor shows it.

import { json } from "./editor-tabs";

type Node = Record<string, unknown>;
/** An image component of composition.json: where it is (`root.children.1`) and its assetId. */
export type ImageSlot = { path: string; assetId: unknown };

const isObject = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);

function parse(text: string): { root: unknown } | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) && "root" in v ? (v as { root: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

/** The image components of composition.json in document order; undefined when it does not parse. */
export function imageSlots(text: string): ImageSlot[] | undefined {
  const parsed = parse(text);
  if (!parsed) return undefined;
  const out: ImageSlot[] = [];
  const visit = (n: unknown, path: string) => {
    if (!isObject(n)) return;
    if (n.type === "image") out.push({ path, assetId: n.assetId });
    for (const list of ["children", "empty"] as const) {
      const items = n[list];
      if (Array.isArray(items)) items.forEach((c, i) => visit(c, `${path}.${list}.${i}`));
    }
  };
  visit(parsed.root, "root");
  return out;
}

/** composition.json with the image component at `path` showing `assetId`; undefined when it is not there. */
export function withImageAsset(text: string, path: string, assetId: string): string | undefined {
  const parsed = parse(text);
  if (!parsed) return undefined;
  const segments = path.split(".").slice(1);
  let node: unknown = parsed.root;
  for (const s of segments) {
    if (Array.isArray(node)) node = node[Number(s)];
    else if (isObject(node)) node = node[s];
    else return undefined;
  }
  if (!isObject(node) || node.type !== "image") return undefined;
  node.assetId = assetId;
  return json(parsed);
}

/**
 * composition.json with a new image component showing `assetId` at the end of the root container
 * (a root of another type is put in a container first), 160 px wide, and where it went.
 */
export function withNewImage(text: string, assetId: string): { text: string; path: string } | undefined {
  const parsed = parse(text);
  if (!parsed) return undefined;
  const image = { type: "image", assetId, width: 160 };
  let root = parsed.root;
  if (!isObject(root) || root.type !== "container" || !Array.isArray(root.children)) {
    root = { type: "container", children: root === undefined || root === null ? [] : [root] };
  }
  const children = (root as { children: unknown[] }).children;
  children.push(image);
  return { text: json({ root }), path: `root.children.${children.length - 1}` };
}
