import { describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";
import { fileDirect, folderDirect, newFolder, newTextFile, seedAsset, type Detail, type Page, type WorkspaceFile } from "@/lib/testing/workspace-files";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type Usage = { type: "template" | "file"; id: string; name: string; as: string; reference: string; field?: string };

const post = (w: TestWorkspace, body: unknown, key = w.key) => api<WorkspaceFile>("/v1/workspace-files", { key, body });
const get = (w: TestWorkspace, id: string) => api<WorkspaceFile>(`/v1/workspace-files/${id}`, { key: w.key });
const patch = (w: TestWorkspace, id: string, body: unknown, key = w.key) => api<WorkspaceFile>(`/v1/workspace-files/${id}`, { method: "PATCH", key, body });
const put = (w: TestWorkspace, id: string, body: unknown) => api<WorkspaceFile>(`/v1/workspace-files/${id}/content`, { method: "PUT", key: w.key, body });
const del = (w: TestWorkspace, id: string) => api(`/v1/workspace-files/${id}`, { method: "DELETE", key: w.key });
const list = (w: TestWorkspace, query = "") => api<Page<WorkspaceFile>>(`/v1/workspace-files${query}`, { key: w.key });
const usages = (w: TestWorkspace, id: string) => api<{ items: Usage[] }>(`/v1/workspace-files/${id}/usages`, { key: w.key });
const messages = (e: { details?: unknown }) => ((e.details ?? []) as Detail[]).map((d) => d.message);

async function template(w: TestWorkspace, name: string, stylesheets: string[], folderId?: string): Promise<{ id: string }> {
  const res = await api("/v1/templates", { key: w.key, body: { name, ...(folderId ? { folderId } : {}), content: { composition: { root: { type: "text", text: name }, stylesheets } } } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe("POST /v1/workspace-files", () => {
  it("creates a text stylesheet: 201, media type from the extension, size in UTF-8 bytes, revision 1, content echoed", async () => {
    const w = await createTestWorkspace();
    const brand = await newFolder(w, "brand");
    const css = ".total { color: #c00 } /* € */";
    const res = await post(w, { folderId: brand.id, name: "print.css", content: css });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^fil_[0-9A-Za-z]+$/),
      name: "print.css",
      folderId: brand.id,
      path: "brand/print.css",
      kind: "text",
      mediaType: "text/css",
      size: Buffer.byteLength(css),
      revision: 1,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      updatedBy: { type: "apiKey", id: w.keyId },
      content: css,
    });
    const read = await get(w, res.body.id);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(res.body);

    const events = await api<{ items: { action: string; targetId: string; details: Record<string, unknown> }[] }>("/v1/audit-events?action=workspace_file.create", { key: w.key });
    expect(events.body.items).toEqual([expect.objectContaining({ targetId: res.body.id, details: { name: "print.css", path: "brand/print.css", kind: "text" } })]);
  });

  it("gives each text extension its media type and refuses other names for text", async () => {
    const w = await createTestWorkspace();
    for (const [name, type] of [
      ["a.CSS", "text/css"],
      ["p.hbs", "text/x-handlebars-template"],
      ["p.html", "text/html"],
      ["h.js", "text/javascript"],
      ["de.json", "application/json"],
      ["notes.txt", "text/plain"],
    ]) {
      const res = await post(w, { name, content: "" });
      expect(res.status, res.text).toBe(201);
      expect(res.body.mediaType).toBe(type);
    }
    for (const name of ["logo.png", "README", ".css"]) {
      const e = expectError(await post(w, { name, content: "x" }), 400, "BAD_REQUEST");
      expect(e.details).toEqual([{ path: "name", message: expect.stringContaining(".css, .hbs, .html, .js, .json, .txt") }]);
    }
  });

  it("takes 1,000,000 characters and refuses 1,000,001 with LIMIT_EXCEEDED naming the limit", async () => {
    const w = await createTestWorkspace();
    const ok = await post(w, { name: "big.css", content: "a".repeat(1_000_000) });
    expect(ok.status, ok.text.slice(0, 300)).toBe(201);
    expect(ok.body.size).toBe(1_000_000);
    const e = expectError(await post(w, { name: "bigger.css", content: "a".repeat(1_000_001) }), 400, "LIMIT_EXCEEDED");
    expect(e.message).toContain("at most 1,000,000 characters");
    expect(e.details).toEqual([{ path: "content", message: expect.stringContaining("1,000,001") }]);
    expectError(await post(w, { name: "bigger.css", content: "€".repeat(500_000) }), 413, "LIMIT_EXCEEDED"); // over the 1 MiB body first
  });

  it("takes names up to 120 characters and refuses longer or malformed ones", async () => {
    const w = await createTestWorkspace();
    expect((await post(w, { name: `${"n".repeat(116)}.css`, content: "" })).status).toBe(201);
    for (const name of [`${"n".repeat(117)}.css`, "a/b.css", "tab\t.css", ""]) {
      const e = expectError(await post(w, { name, content: "" }), 400, "BAD_REQUEST");
      expect((e.details as Detail[])[0]!.path).toBe("name");
    }
  });

  it("answers 409 for a name a file or folder of the folder has, ignoring case", async () => {
    const w = await createTestWorkspace();
    await newTextFile(w, "Print.css", "");
    await newFolder(w, "fonts.css");
    expect(expectError(await post(w, { name: "print.CSS", content: "" }), 409, "CONFLICT").message).toContain("the file Print.css");
    expect(expectError(await post(w, { name: "FONTS.css", content: "" }), 409, "CONFLICT").message).toContain("the folder fonts.css");
    const sub = await newFolder(w, "sub");
    expect((await post(w, { name: "print.css", folderId: sub.id, content: "" })).status).toBe(201);
  });

  it("makes an asset-backed file from a ready asset: its media type and size, no content", async () => {
    const w = await createTestWorkspace();
    const a = await seedAsset(w, { mediaType: "font/woff2", size: 48_213 });
    const res = await post(w, { name: "Inter.woff2", assetId: a.id });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "Inter.woff2", path: "Inter.woff2", kind: "asset", assetId: a.id, mediaType: "font/woff2", size: 48_213, revision: 1 });
    expect(res.body.content).toBeUndefined();
    expect((await get(w, res.body.id)).body.content).toBeUndefined();
  });

  it("refuses an asset that is pending, unknown or another workspace's with ASSET_INVALID, and both or neither of content and assetId", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const pending = await seedAsset(w, { state: "pending" });
    const theirs = await seedAsset(other);
    for (const id of [pending.id, theirs.id, "ast_nope"]) {
      const e = expectError(await post(w, { name: "x.woff2", assetId: id }), 400, "ASSET_INVALID");
      expect(e.details).toEqual([{ path: "assetId", message: expect.stringContaining(id) }]);
    }
    const mine = await seedAsset(w);
    expectError(await post(w, { name: "x.css", assetId: mine.id, content: "" }), 400, "BAD_REQUEST");
    expectError(await post(w, { name: "x.css" }), 400, "BAD_REQUEST");
  });

  it("needs asset:manage besides template:write for an asset-backed file", async () => {
    const w = await createTestWorkspace();
    const a = await seedAsset(w);
    const writer = await w.newKey(["template:write", "template:read"]);
    const e = expectError(await post(w, { name: "Inter.woff2", assetId: a.id }, writer.secret), 403, "FORBIDDEN");
    expect(e.message).toContain("asset:manage");
    expect((await post(w, { name: "ok.css", content: "" }, writer.secret)).status).toBe(201);
  });

  it("answers 404 for a folder of another workspace and 400 for unknown fields", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    expectError(await post(w, { name: "a.css", content: "", folderId: (await folderDirect(other)).id }), 404, "NOT_FOUND");
    expect(expectError(await post(w, { name: "a.css", content: "", mediaType: "text/css" }), 400, "BAD_REQUEST").details).toEqual([
      { path: "mediaType", message: "is not a known field" },
    ]);
  });

  describe("security", () => {
    securityCases({ scope: "template:write", request: (_w, key) => api("/v1/workspace-files", { key, body: { name: "s.css", content: "" } }) });
  });
});

describe("GET /v1/workspace-files", () => {
  it("lists one folder's files by name ignoring case, paged, without content; filters by kind and media type", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    await fileDirect(other, "a.css");
    const sub = await newFolder(w, "sub");
    for (const name of ["d.css", "B.css", "a.json", "c.txt"]) await newTextFile(w, name, "{}");
    const font = await post(w, { name: "Font.woff2", assetId: (await seedAsset(w)).id });
    const inside = await newTextFile(w, "inside.css", "", sub.id);

    const names: string[][] = [];
    let cursor: string | undefined;
    do {
      const res = await list(w, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.items.every((f) => f.content === undefined)).toBe(true);
      names.push(res.body.items.map((f) => f.name));
      cursor = res.body.nextCursor;
    } while (cursor && names.length < 10);
    expect(names).toEqual([["a.json", "B.css"], ["c.txt", "d.css"], ["Font.woff2"]]);

    expect((await list(w, "?folderId=root&mediaType=text/css")).body.items.map((f) => f.name)).toEqual(["B.css", "d.css"]);
    expect((await list(w, "?kind=asset")).body.items.map((f) => f.id)).toEqual([font.body.id]);
    const { content: _c, ...listed } = inside;
    expect((await list(w, `?folderId=${sub.id}`)).body).toEqual({ items: [listed] });
  });

  it("answers 404 for a folder of another workspace and 400 for unknown parameters", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    expectError(await list(w, `?folderId=${(await folderDirect(other)).id}`), 404, "NOT_FOUND");
    expectError(await list(w, "?parentId=root"), 400, "BAD_REQUEST");
    expectError(await list(w, "?kind=binary"), 400, "BAD_REQUEST");
  });

  describe("security", () => {
    securityCases({ scope: "template:read", request: (_w, key) => api("/v1/workspace-files", { key }) });
  });
});

describe("GET /v1/workspace-files/{id}", () => {
  describe("security", () => {
    securityCases({
      scope: "template:read",
      request: async (w, key) => api(`/v1/workspace-files/${(await fileDirect(w)).id}`, { key }),
      crossWorkspace: async (w, other) => api(`/v1/workspace-files/${(await fileDirect(other)).id}`, { key: w.key }),
    });
  });
});

describe("PUT /v1/workspace-files/{id}/content", () => {
  it("saves with the current revision (revision + 1) and answers 409 with the current revision when stale", async () => {
    const w = await createTestWorkspace();
    const f = await newTextFile(w, "print.css", "a{}");
    const saved = await put(w, f.id, { content: "b{}", expectedRevision: 1 });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ id: f.id, revision: 2, size: 3, updatedBy: { type: "apiKey", id: w.keyId } });
    expect((await get(w, f.id)).body).toMatchObject({ revision: 2, content: "b{}" });

    const stale = expectError(await put(w, f.id, { content: "c{}", expectedRevision: 1 }), 409, "CONFLICT");
    expect(stale.message).toMatch(/^The file is at revision 2 \(saved by API key test key at .*\), not 1/);
    expect((stale as unknown as { current: unknown }).current).toEqual({ revision: 2, updatedAt: saved.body.updatedAt, savedBy: { type: "apiKey", id: w.keyId, name: "test key" } });
    expect((await get(w, f.id)).body.content).toBe("b{}");
  });

  it("lets exactly one of two saves on one revision through", async () => {
    const w = await createTestWorkspace();
    const f = await newTextFile(w, "race.css", "");
    const answers = await Promise.all(["x{}", "y{}", "z{}"].map((content) => put(w, f.id, { content, expectedRevision: 1 })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect((await get(w, f.id)).body.revision).toBe(2);
  });

  it("refuses 1,000,001 characters, an asset-backed file, unknown fields, and another workspace's file", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const f = await newTextFile(w, "a.css", "");
    expectError(await put(w, f.id, { content: "a".repeat(1_000_001), expectedRevision: 1 }), 400, "LIMIT_EXCEEDED");
    const font = await post(w, { name: "f.woff2", assetId: (await seedAsset(w)).id });
    expect(expectError(await put(w, font.body.id, { content: "x", expectedRevision: 1 }), 400, "BAD_REQUEST").message).toContain("uploaded file");
    expectError(await put(w, f.id, { content: "x", expectedRevision: 1, name: "b.css" }), 400, "BAD_REQUEST");
    expectError(await put(w, (await fileDirect(other)).id, { content: "x", expectedRevision: 1 }), 404, "NOT_FOUND");
  });

  describe("security", () => {
    securityCases({
      scope: "template:write",
      request: async (w, key) => api(`/v1/workspace-files/${(await fileDirect(w)).id}/content`, { method: "PUT", key, body: { content: "", expectedRevision: 1 } }),
      crossWorkspace: async (w, other) => api(`/v1/workspace-files/${(await fileDirect(other)).id}/content`, { method: "PUT", key: w.key, body: { content: "", expectedRevision: 1 } }),
    });
  });
});

describe("PATCH /v1/workspace-files/{id}", () => {
  it("renames and moves, with the new path and media type, and refuses a taken name (409) or a non-text name (400)", async () => {
    const w = await createTestWorkspace();
    const brand = await newFolder(w, "brand");
    const f = await newTextFile(w, "draft.txt", "a{}");
    const renamed = await patch(w, f.id, { name: "print.css", folderId: brand.id });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ name: "print.css", folderId: brand.id, path: "brand/print.css", mediaType: "text/css", revision: 1 });
    expect((await patch(w, f.id, { name: "PRINT.css" })).body.path).toBe("brand/PRINT.css"); // its own name in another case
    const back = await patch(w, f.id, { folderId: null });
    expect(back.body.folderId).toBeUndefined();
    expect(back.body.path).toBe("PRINT.css");

    await newFolder(w, "Taken.css");
    expectError(await patch(w, f.id, { name: "taken.CSS" }), 409, "CONFLICT");
    expectError(await patch(w, f.id, { name: "print.png" }), 400, "BAD_REQUEST");
    expectError(await patch(w, f.id, {}), 400, "BAD_REQUEST");
  });

  it("points an asset-backed file at another ready asset (revision + 1, the new type and size); not a text file", async () => {
    const w = await createTestWorkspace();
    const first = await seedAsset(w, { mediaType: "image/png", kind: "image", size: 10 });
    const second = await seedAsset(w, { mediaType: "image/jpeg", kind: "image", size: 20 });
    const logo = await post(w, { name: "logo", assetId: first.id });
    expect(logo.status, logo.text).toBe(201);
    const swapped = await patch(w, logo.body.id, { assetId: second.id });
    expect(swapped.status, swapped.text).toBe(200);
    expect(swapped.body).toMatchObject({ assetId: second.id, mediaType: "image/jpeg", size: 20, revision: 2 });
    const text = await newTextFile(w, "a.css", "");
    expectError(await patch(w, text.id, { assetId: second.id }), 400, "BAD_REQUEST");
    expectError(await patch(w, logo.body.id, { assetId: (await seedAsset(w, { state: "pending" })).id }), 400, "ASSET_INVALID");
    const writer = await w.newKey(["template:write", "template:read"]);
    expectError(await patch(w, logo.body.id, { assetId: first.id }, writer.secret), 403, "FORBIDDEN");
  });

  describe("security", () => {
    securityCases({
      scope: "template:write",
      request: async (w, key) => api(`/v1/workspace-files/${(await fileDirect(w)).id}`, { method: "PATCH", key, body: { name: "renamed.css" } }),
      crossWorkspace: async (w, other) => api(`/v1/workspace-files/${(await fileDirect(other)).id}`, { method: "PATCH", key: w.key, body: { name: "renamed.css" } }),
    });
  });
});

describe("DELETE /v1/workspace-files/{id} and GET …/usages", () => {
  it("deletes a file nobody uses", async () => {
    const w = await createTestWorkspace();
    const f = await newTextFile(w, "a.css", "");
    expect((await usages(w, f.id)).body).toEqual({ items: [] });
    const res = await del(w, f.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: f.id });
    expectError(await get(w, f.id), 404, "NOT_FOUND");
  });

  it("answers 409 while template drafts name it as a stylesheet from their folders, listing them; published versions do not count", async () => {
    const w = await createTestWorkspace();
    const brand = await newFolder(w, "brand");
    const letters = await newFolder(w, "letters", brand.id);
    const css = await newTextFile(w, "print.css", ".a{}", brand.id);
    await newTextFile(w, "other.css", ".b{}"); // at the root: Letter's first stylesheet resolves, so it can be published
    const inBrand = await template(w, "Invoice", ["print.css"], brand.id);
    const atRoot = await template(w, "Letter", ["other.css", "/brand/PRINT.css"]);
    const below = await template(w, "Reminder", ["../print.css"], letters.id);
    await template(w, "Unrelated", ["print.css"]); // names a print.css at the root: none

    const e = expectError(await del(w, css.id), 409, "CONFLICT");
    expect(e.message).toBe("The file brand/print.css is still in use (3 uses); change or delete its users first");
    expect(messages(e)).toEqual([
      `template ${inBrand.id} (Invoice) uses it as stylesheet print.css`,
      `template ${atRoot.id} (Letter) uses it as stylesheet /brand/PRINT.css`,
      `template ${below.id} (Reminder) uses it as stylesheet ../print.css`,
    ]);
    expect((await usages(w, css.id)).body.items).toEqual([
      { type: "template", id: inBrand.id, name: "Invoice", as: "stylesheet", reference: "print.css", field: "composition.stylesheets.0" },
      { type: "template", id: atRoot.id, name: "Letter", as: "stylesheet", reference: "/brand/PRINT.css", field: "composition.stylesheets.1" },
      { type: "template", id: below.id, name: "Reminder", as: "stylesheet", reference: "../print.css", field: "composition.stylesheets.0" },
    ]);

    // Published, then the drafts drop the stylesheet: the versions do not hold the file.
    for (const t of [inBrand, atRoot, below]) {
      const v = await api(`/v1/templates/${t.id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
      expect(v.status, v.text).toBe(201);
      const saved = await api(`/v1/templates/${t.id}/draft`, { method: "PUT", key: w.key, body: { content: { composition: { root: { type: "text", text: "x" } } }, expectedRevision: 1 } });
      expect(saved.status, saved.text).toBe(200);
    }
    expect((await del(w, css.id)).status).toBe(200);
  });

  it("answers 409 while a stylesheet names it in url() or @import from its own folder", async () => {
    const w = await createTestWorkspace();
    const brand = await newFolder(w, "brand");
    const fonts = await newFolder(w, "fonts", brand.id);
    const shared = await newFolder(w, "shared");
    const font = await post(w, { name: "Inter Bold.woff2", folderId: fonts.id, assetId: (await seedAsset(w)).id });
    const base = await newTextFile(w, "base.css", "body{margin:0}", shared.id);
    const sheet = await newTextFile(
      w,
      "print.css",
      `@import "../shared/base.css";\n/* url(fonts/Inter Bold.woff2) in a comment does not count */\n@font-face { font-family: Inter; src: url("fonts/Inter%20Bold.woff2?v=2") format("woff2"), url(data:font/woff2;base64,AA); }`,
      brand.id,
    );
    await newTextFile(w, "elsewhere.css", `@font-face { src: url("fonts/Inter Bold.woff2") }`, shared.id); // shared/fonts/…: none

    const e = expectError(await del(w, font.body.id), 409, "CONFLICT");
    expect(messages(e)).toEqual([`stylesheet brand/print.css (${sheet.id}) uses it in url(fonts/Inter%20Bold.woff2?v=2)`]);
    expect((await usages(w, base.id)).body.items).toEqual([{ type: "file", id: sheet.id, name: "brand/print.css", as: "import", reference: "../shared/base.css" }]);
    expectError(await del(w, base.id), 409, "CONFLICT");

    expect((await put(w, sheet.id, { content: "body{}", expectedRevision: 1 })).status).toBe(200);
    expect((await del(w, font.body.id)).status).toBe(200);
    expect((await del(w, base.id)).status).toBe(200);
  });

  describe("security of DELETE", () => {
    securityCases({
      scope: "template:write",
      request: async (w, key) => api(`/v1/workspace-files/${(await fileDirect(w)).id}`, { method: "DELETE", key }),
      crossWorkspace: async (w, other) => api(`/v1/workspace-files/${(await fileDirect(other)).id}`, { method: "DELETE", key: w.key }),
    });
  });

  describe("security of usages", () => {
    securityCases({
      scope: "template:read",
      request: async (w, key) => api(`/v1/workspace-files/${(await fileDirect(w)).id}/usages`, { key }),
      crossWorkspace: async (w, other) => api(`/v1/workspace-files/${(await fileDirect(other)).id}/usages`, { key: w.key }),
    });
  });
});
