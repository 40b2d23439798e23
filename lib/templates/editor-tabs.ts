// The console editor's tabs over a component template's content, and back. Pure: the browser imports it.
// spec: Component template: the console shows composition.json holding only root, and the page
// header and footer; components (and anything else of the composition) are kept as they are.

export type Content = { composition: Record<string, unknown> & { root?: unknown; header?: string; footer?: string }; settings?: Record<string, unknown> };

/** What each tab edits, as text. */
export type Tabs = { composition: string; header: string; footer: string; settings: string };

export const json = (v: unknown) => JSON.stringify(v, null, 2);

export function toTabs(content: Content): Tabs {
  const c = content.composition ?? {};
  return { composition: json({ root: c.root }), header: c.header ?? "", footer: c.footer ?? "", settings: json(content.settings ?? {}) };
}

export type Built = { ok: true; content: Content } | { ok: false; tab: keyof Tabs; message: string };

/**
 * The content to save or preview: the edited root, header, footer and settings merged into `stored`
 * (the draft as last read), so its reusable components and stylesheets stay as they are. An empty
 * header or footer is left out; so are empty settings the stored draft did not have.
 */
export function fromTabs(tabs: Tabs, stored: Content): Built {
  let root: unknown;
  try {
    const parsed: unknown = JSON.parse(tabs.composition);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || !("root" in parsed)) {
      return { ok: false, tab: "composition", message: "composition.json must be an object with root" };
    }
    const extra = Object.keys(parsed).filter((k) => k !== "root");
    if (extra.length) return { ok: false, tab: "composition", message: `composition.json holds only root; ${extra.join(", ")} is not shown here` };
    root = (parsed as { root: unknown }).root;
  } catch (e) {
    return { ok: false, tab: "composition", message: `composition.json is not valid JSON: ${(e as Error).message}` };
  }
  let settings: unknown;
  try {
    settings = JSON.parse(tabs.settings);
  } catch (e) {
    return { ok: false, tab: "settings", message: `Page settings are not valid JSON: ${(e as Error).message}` };
  }
  const { header: _h, footer: _f, ...kept } = stored.composition ?? {};
  const composition: Content["composition"] = { ...kept, root };
  if (tabs.header !== "") composition.header = tabs.header;
  if (tabs.footer !== "") composition.footer = tabs.footer;
  const content: Content = { composition };
  const emptySettings = typeof settings === "object" && settings !== null && !Array.isArray(settings) && Object.keys(settings).length === 0;
  if (!(emptySettings && stored.settings === undefined)) content.settings = settings as Record<string, unknown>;
  return { ok: true, content };
}

/** Sample data: a JSON object, or why it is not one. */
export function parseData(text: string): { ok: true; data: Record<string, unknown> } | { ok: false; message: string } {
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== "object" || v === null || Array.isArray(v)) return { ok: false, message: "Sample data must be a JSON object" };
    return { ok: true, data: v as Record<string, unknown> };
  } catch (e) {
    return { ok: false, message: `Sample data is not valid JSON: ${(e as Error).message}` };
  }
}

/** Which tab a server error's details[].path ("content.composition.root.children.0") belongs to. */
export function tabOfPath(path: string | undefined): keyof Tabs | "data" | undefined {
  if (!path) return undefined;
  if (path.startsWith("content.composition.header")) return "header";
  if (path.startsWith("content.composition.footer")) return "footer";
  if (path.startsWith("content.composition")) return "composition";
  if (path.startsWith("content.settings")) return "settings";
  if (path.startsWith("data")) return "data";
  // A binding's path names data ("customer.name"): the sample data lacks it.
  return "data";
}
