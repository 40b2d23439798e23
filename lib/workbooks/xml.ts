/**
 * The little XML a workbook's parts need, read and written as text: OOXML parts are written by
 * programs, in a regular shape, and the fill changes a few attributes and elements of them while
 * every other byte stays as it was (which a parse into objects and back would not keep).
 */

/** The attributes of a start tag's text ("<c r=\"A1\" s=\"2\">"), by name. */
export function attrs(tag: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) out.set(m[1]!, m[2] ?? m[3] ?? "");
  return out;
}

/** A start tag with one attribute set (added at its end when missing) or removed (value undefined). */
export function setAttr(tag: string, name: string, value: string | undefined): string {
  const re = new RegExp(`\\s${name.replace(/[.:]/g, "\\$&")}\\s*=\\s*(?:"[^"]*"|'[^']*')`);
  if (value === undefined) return tag.replace(re, "");
  const written = ` ${name}="${escapeXml(value)}"`;
  if (re.test(tag)) return tag.replace(re, written);
  return tag.replace(/\s*(\/?>)$/, `${written}$1`);
}

const XML_ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text for an element or attribute; characters XML 1.0 cannot hold (control characters but tab and line breaks, lone surrogates) are left out. */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "")
    .replace(/[&<>"']/g, (c) => XML_ENTITIES[c]!);
}

/** XML text back to characters: the five entities and character references. */
export function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-fA-F]+|#\d+);/g, (whole, e: string) => {
    if (e === "amp") return "&";
    if (e === "lt") return "<";
    if (e === "gt") return ">";
    if (e === "quot") return '"';
    if (e === "apos") return "'";
    const code = e.startsWith("#x") ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The text of a shared string or inline string: its <t> elements joined (rich text runs lose their formatting), phonetic runs left out. */
export function textOf(si: string): string {
  const withoutPhonetic = si.replace(/<rPh\b[\s\S]*?<\/rPh>/g, "");
  let text = "";
  for (const m of withoutPhonetic.matchAll(/<t(?:\s[^>]*)?>([\s\S]*?)<\/t>|<t(?:\s[^>]*)?\/>/g)) text += unescapeXml(m[1] ?? "");
  return text;
}

/** Elements of one name with their start tag and inner text, in order (not nested in themselves). */
export function* elements(xml: string, name: string): Generator<{ tag: string; inner: string | undefined; start: number; end: number }> {
  const re = new RegExp(`<${name}(?=[\\s>/])[^>]*?(?:/>|>([\\s\\S]*?)</${name}>)`, "g");
  for (const m of xml.matchAll(re)) {
    const whole = m[0];
    const tagEnd = whole.indexOf(">") + 1;
    yield { tag: whole.slice(0, tagEnd), inner: m[1], start: m.index, end: m.index + whole.length };
  }
}

/** The parts a relationships part points at, by id, resolved against the folder of the part it belongs to. */
export function relationships(relsXml: string, partFolder: string): Map<string, { target: string; type: string }> {
  const out = new Map<string, { target: string; type: string }>();
  for (const r of elements(relsXml, "Relationship")) {
    const a = attrs(r.tag);
    if (a.get("TargetMode") === "External") continue;
    const target = a.get("Target") ?? "";
    out.set(a.get("Id") ?? "", { target: resolvePart(partFolder, target), type: a.get("Type") ?? "" });
  }
  return out;
}

/** A relationship's target as a part name: "worksheets/sheet1.xml" from "xl/" is "xl/worksheets/sheet1.xml"; "/xl/x" is "xl/x". */
export function resolvePart(folder: string, target: string): string {
  const parts = (target.startsWith("/") ? target.slice(1) : `${folder}${target}`).split("/");
  const out: string[] = [];
  for (const p of parts) {
    if (p === "..") out.pop();
    else if (p !== "." && p !== "") out.push(p);
  }
  return out.join("/");
}

/** The relationships part of a part: xl/worksheets/sheet1.xml's is xl/worksheets/_rels/sheet1.xml.rels. */
export function relsPathOf(part: string): string {
  const slash = part.lastIndexOf("/");
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** The folder of a part, with its trailing slash. */
export function folderOf(part: string): string {
  return part.slice(0, part.lastIndexOf("/") + 1);
}
