/**
 * Joins PDFs into one (spec: Endpoints > Renders rule 3): pages in order with their sizes, fonts
 * and images; the first document's title, author, subject, keywords and creator; no bookmarks and
 * no attached files. Pure: bytes in, bytes out.
 *
 * Links: Chromium writes an in-document link as a named destination (`/Dest /section` on the link,
 * the name resolved in the catalog's /Dests, or a /Names tree). pdf-lib's copyPages copies pages,
 * not the catalog, so every such name would dangle in the joined file. Each copied link is
 * rewritten to an explicit destination, [page /XYZ left top zoom], on the copied page.
 */
import {
  ParseSpeeds,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRef,
  PDFString,
  type PDFObject,
} from "pdf-lib";

export class UnjoinablePdf extends Error {}

/** A destination's name as text, whatever way it is written (a name, a literal or a hex string). */
function nameOf(o: PDFObject | undefined): string | undefined {
  if (o instanceof PDFName) return o.decodeText();
  if (o instanceof PDFString || o instanceof PDFHexString) return o.decodeText();
  return undefined;
}

/** The named destinations of a document: the catalog's /Dests dictionary and its /Names /Dests tree. */
function namedDestinations(doc: PDFDocument): Map<string, PDFObject> {
  const out = new Map<string, PDFObject>();
  const ctx = doc.context;
  const dests = doc.catalog.lookupMaybe(PDFName.of("Dests"), PDFDict);
  if (dests) for (const [k, v] of dests.entries()) out.set(k.decodeText(), ctx.lookup(v)!);
  const names = doc.catalog.lookupMaybe(PDFName.of("Names"), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of("Dests"), PDFDict);
  const walk = (node: PDFDict, depth: number) => {
    if (depth > 32) return; // a looping tree
    const leaf = node.lookupMaybe(PDFName.of("Names"), PDFArray);
    if (leaf) {
      for (let i = 0; i + 1 < leaf.size(); i += 2) {
        const name = nameOf(leaf.lookup(i));
        if (name !== undefined) out.set(name, ctx.lookup(leaf.get(i + 1))!);
      }
    }
    const kids = node.lookupMaybe(PDFName.of("Kids"), PDFArray);
    if (kids) for (let i = 0; i < kids.size(); i++) {
      const kid = kids.lookup(i);
      if (kid instanceof PDFDict) walk(kid, depth + 1);
    }
  };
  if (tree) walk(tree, 0);
  return out;
}

/** An explicit destination array: a value of the name map may be the array or a dictionary with /D. */
function explicitDest(doc: PDFDocument, value: PDFObject | undefined): PDFArray | undefined {
  const v = value instanceof PDFRef ? doc.context.lookup(value) : value;
  if (v instanceof PDFArray) return v;
  if (v instanceof PDFDict) {
    const d = v.lookup(PDFName.of("D"));
    return d instanceof PDFArray ? d : undefined;
  }
  return undefined;
}

type Resolve = (dest: PDFObject | undefined) => PDFArray | undefined;

/**
 * Rewrites the copied link annotations of one source document: a link whose destination names a
 * place (directly or through a GoTo action) gets that place as an explicit destination on the
 * copied page; a link to a page the source does not have loses its destination.
 */
function rewriteLinks(out: PDFDocument, src: PDFDocument, copied: PDFRef[]) {
  const srcPages = src.getPages().map((p) => p.ref);
  const pageOf = new Map(srcPages.map((ref, i) => [ref.toString(), copied[i]!]));
  const names = namedDestinations(src);
  const resolve: Resolve = (dest) => {
    const name = nameOf(dest);
    const arr = name !== undefined ? explicitDest(src, names.get(name)) : explicitDest(src, dest);
    if (!arr || arr.size() === 0) return undefined;
    const target = arr.get(0);
    const page = target instanceof PDFRef ? pageOf.get(target.toString()) : undefined;
    // An explicit destination may name the page by number instead (remote-style); keep it when it exists.
    const byNumber = target instanceof PDFNumber ? copied[target.asNumber()] : undefined;
    const ref = page ?? byNumber;
    if (!ref) return undefined;
    const rest: PDFObject[] = [];
    for (let i = 1; i < arr.size(); i++) rest.push(arr.get(i));
    return out.context.obj([ref, ...rest]) as PDFArray;
  };
  // The copied pages carry the source's annotations, with the destinations still in the source's terms.
  for (const ref of copied) {
    const page = out.context.lookup(ref, PDFDict);
    const annots = page.lookupMaybe(PDFName.of("Annots"), PDFArray);
    if (!annots) continue;
    for (let i = 0; i < annots.size(); i++) {
      const a = annots.lookup(i);
      if (!(a instanceof PDFDict) || a.get(PDFName.of("Subtype")) !== PDFName.of("Link")) continue;
      const dest = a.get(PDFName.of("Dest"));
      const action = a.lookupMaybe(PDFName.of("A"), PDFDict);
      if (dest !== undefined) {
        const fixed = resolve(dest);
        if (fixed) a.set(PDFName.of("Dest"), fixed);
        else a.delete(PDFName.of("Dest"));
      } else if (action && action.get(PDFName.of("S")) === PDFName.of("GoTo")) {
        const fixed = resolve(action.get(PDFName.of("D")));
        a.delete(PDFName.of("A"));
        if (fixed) a.set(PDFName.of("Dest"), fixed);
      }
    }
  }
}

const INFO_FIELDS = ["Title", "Author", "Subject", "Keywords", "Creator"] as const;

/** Joins the PDFs in order. Throws UnjoinablePdf (with the index) for an encrypted or unreadable item. */
export async function joinPdfs(files: Uint8Array[]): Promise<Uint8Array> {
  const out = await PDFDocument.create({ updateMetadata: false });
  for (let i = 0; i < files.length; i++) {
    let src: PDFDocument;
    try {
      src = await PDFDocument.load(files[i]!, { parseSpeed: ParseSpeeds.Fastest, updateMetadata: false });
    } catch (e) {
      throw new UnjoinablePdf(`item ${i}: ${(e as Error).message}`);
    }
    if (i === 0) copyInfo(src, out);
    // Copy with the link destinations still as written; explicit ones are pointed at the copies below.
    const srcAnnotDests = stripExplicitDests(src);
    const pages = await out.copyPages(src, src.getPageIndices());
    for (const p of pages) out.addPage(p);
    restoreExplicitDests(src, srcAnnotDests);
    rewriteLinks(out, src, pages.map((p) => p.ref));
  }
  return out.save({ useObjectStreams: true, addDefaultPage: false, objectsPerTick: Infinity });
}

/**
 * Explicit destinations ([pageRef ...]) on source links would make copyPages copy the target page
 * a second time, unattached. They are taken off before copying, kept by annotation, and
 * `rewriteLinks` resolves them from the source afterwards through the copied annotation's /Dest,
 * put back here on the source (the copies got a placeholder name).
 */
type Stripped = { annot: PDFDict; key: "Dest" | "D"; value: PDFArray }[];

function stripExplicitDests(src: PDFDocument): Stripped {
  const stripped: Stripped = [];
  for (const page of src.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
    if (!annots) continue;
    for (let i = 0; i < annots.size(); i++) {
      const a = annots.lookup(i);
      if (!(a instanceof PDFDict)) continue;
      const d = a.lookup(PDFName.of("Dest"));
      if (d instanceof PDFArray) {
        stripped.push({ annot: a, key: "Dest", value: d });
        a.set(PDFName.of("Dest"), placeholder(stripped.length - 1));
      }
      const act = a.lookupMaybe(PDFName.of("A"), PDFDict);
      const ad = act?.lookup(PDFName.of("D"));
      if (act && ad instanceof PDFArray) {
        stripped.push({ annot: act, key: "D", value: ad });
        act.set(PDFName.of("D"), placeholder(stripped.length - 1));
      }
    }
  }
  return stripped;
}

const PLACEHOLDER = "folio-explicit-dest-";
const placeholder = (i: number) => PDFString.of(`${PLACEHOLDER}${i}`);

function restoreExplicitDests(src: PDFDocument, stripped: Stripped) {
  // The placeholders resolve through the name map: register them on the source's catalog /Dests.
  let dests = src.catalog.lookupMaybe(PDFName.of("Dests"), PDFDict);
  if (!dests) {
    dests = src.context.obj({}) as PDFDict;
    src.catalog.set(PDFName.of("Dests"), dests);
  }
  stripped.forEach((s, i) => {
    s.annot.set(PDFName.of(s.key), s.value);
    dests.set(PDFName.of(`${PLACEHOLDER}${i}`), s.value);
  });
}

function copyInfo(src: PDFDocument, out: PDFDocument) {
  const info = src.context.lookup(src.context.trailerInfo.Info);
  if (!(info instanceof PDFDict)) return;
  const copy = out.context.obj({}) as PDFDict;
  for (const f of INFO_FIELDS) {
    const v = info.lookup(PDFName.of(f));
    if (v instanceof PDFString || v instanceof PDFHexString) copy.set(PDFName.of(f), v);
  }
  out.context.trailerInfo.Info = out.context.register(copy);
}
