import { describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";
import { folderDirect, newFolder, newTextFile, type Detail, type Folder, type Page } from "@/lib/testing/workspace-files";

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const post = (w: TestWorkspace, body: unknown) => api<Folder>("/v1/workspace-folders", { key: w.key, body });
const patch = (w: TestWorkspace, id: string, body: unknown) => api<Folder>(`/v1/workspace-folders/${id}`, { method: "PATCH", key: w.key, body });
const del = (w: TestWorkspace, id: string) => api(`/v1/workspace-folders/${id}`, { method: "DELETE", key: w.key });
const list = (w: TestWorkspace, query = "") => api<Page<Folder>>(`/v1/workspace-folders${query}`, { key: w.key });
const messages = (e: { details?: unknown }) => ((e.details ?? []) as Detail[]).map((d) => d.message);

/** A chain of folders `levels` deep (l1/l2/…), made through the API; returns the deepest. */
async function chain(w: TestWorkspace, levels: number, prefix = "l"): Promise<Folder> {
  let parent: Folder | undefined;
  for (let i = 1; i <= levels; i++) parent = await newFolder(w, `${prefix}${i}`, parent?.id);
  return parent!;
}

describe("POST /v1/workspace-folders", () => {
  it("creates a folder at the root and one inside it, each with its path from the root", async () => {
    const w = await createTestWorkspace();
    const res = await post(w, { name: "Brand" });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^fld_[0-9A-Za-z]+$/), name: "Brand", path: "Brand", createdAt: expect.stringMatching(ISO), updatedAt: expect.stringMatching(ISO) });
    const inner = await post(w, { name: "Letters 2025", parentId: res.body.id });
    expect(inner.status, inner.text).toBe(201);
    expect(inner.body).toMatchObject({ name: "Letters 2025", parentId: res.body.id, path: "Brand/Letters 2025" });
    const atRoot = await post(w, { name: "Other", parentId: null });
    expect(atRoot.status, atRoot.text).toBe(201);
    expect(atRoot.body.parentId).toBeUndefined();

    const read = await api<Folder>(`/v1/workspace-folders/${inner.body.id}`, { key: w.key });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(inner.body);

    const events = await api<{ items: { action: string; targetId: string; details: Record<string, unknown> }[] }>("/v1/audit-events?action=workspace_folder.create", { key: w.key });
    expect(events.body.items.map((e) => [e.targetId, e.details.path])).toEqual([
      [atRoot.body.id, "Other"],
      [inner.body.id, "Brand/Letters 2025"],
      [res.body.id, "Brand"],
    ]);
  });

  it("answers 409 for a name that a folder or a file of the same folder has, ignoring case", async () => {
    const w = await createTestWorkspace();
    const brand = await newFolder(w, "Brand");
    await newTextFile(w, "print.css", "a{}", brand.id);
    const twin = expectError(await post(w, { name: "BRAND" }), 409, "CONFLICT");
    expect(twin.message).toMatch(/a file or folder with that name already exists: the folder Brand/i);
    expect((twin.details as Detail[])[0]!.path).toBe("name");
    const asFile = expectError(await post(w, { name: "Print.CSS", parentId: brand.id }), 409, "CONFLICT");
    expect(asFile.message).toContain("the file Brand/print.css");
    // The same name elsewhere is fine.
    expect((await post(w, { name: "brand", parentId: brand.id })).status).toBe(201);
  });

  it("takes names up to 80 characters and refuses longer ones, slashes, dot names and padding", async () => {
    const w = await createTestWorkspace();
    expect((await post(w, { name: "x".repeat(80) })).status).toBe(201);
    for (const [name, message] of [
      ["y".repeat(81), /1 to 80/],
      ["", /1 to 80/],
      ["a/b", /\//],
      ["..", /\.\./],
      [" padded", /spaces/],
    ] as const) {
      const e = expectError(await post(w, { name }), 400, "BAD_REQUEST");
      expect(e.details).toEqual([{ path: "name", message: expect.stringMatching(message) }]);
    }
  });

  it("nests 20 levels and refuses the 21st with LIMIT_EXCEEDED naming the limit", async () => {
    const w = await createTestWorkspace();
    const deepest = await chain(w, 20);
    expect(deepest.path.split("/")).toHaveLength(20);
    const e = expectError(await post(w, { name: "l21", parentId: deepest.id }), 400, "LIMIT_EXCEEDED");
    expect(e.message).toMatch(/at most 20 levels/);
    expect((e.details as Detail[])[0]!.path).toBe("parentId");
  });

  it("answers 404 for a parent of another workspace or none, and 400 for unknown fields", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const theirs = await folderDirect(other);
    expectError(await post(w, { name: "x", parentId: theirs.id }), 404, "NOT_FOUND");
    expectError(await post(w, { name: "x", parentId: "fld_nope" }), 404, "NOT_FOUND");
    const e = expectError(await post(w, { name: "x", colour: "red" }), 400, "BAD_REQUEST");
    expect(e.details).toEqual([{ path: "colour", message: "is not a known field" }]);
  });

  describe("security", () => {
    securityCases({ scope: "template:write", request: (_w, key) => api("/v1/workspace-folders", { key, body: { name: "sec" } }) });
  });
});

describe("GET /v1/workspace-folders", () => {
  it("lists one folder's folders by name ignoring case, paged, never another workspace's", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    await folderDirect(other, "aaa");
    for (const name of ["delta", "Alpha", "charlie", "Bravo", "echo"]) await newFolder(w, name);
    const parent = await newFolder(w, "foxtrot");
    const child = await newFolder(w, "inside", parent.id);

    const names: string[][] = [];
    let cursor: string | undefined;
    do {
      const res = await list(w, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(res.status, res.text).toBe(200);
      names.push(res.body.items.map((f) => f.name));
      cursor = res.body.nextCursor;
    } while (cursor && names.length < 10);
    expect(names).toEqual([["Alpha", "Bravo"], ["charlie", "delta"], ["echo", "foxtrot"]]);

    expect((await list(w, "?parentId=root&limit=100")).body.items).toHaveLength(6);
    const inside = await list(w, `?parentId=${parent.id}`);
    expect(inside.body).toEqual({ items: [child] });
  });

  it("answers 404 for a parent of another workspace and 400 for a bad cursor or unknown parameter", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    expectError(await list(w, `?parentId=${(await folderDirect(other)).id}`), 404, "NOT_FOUND");
    expect(expectError(await list(w, "?cursor=bm9wZQ"), 400, "BAD_REQUEST").details).toEqual([{ path: "query.cursor", message: expect.any(String) }]);
    expectError(await list(w, "?folder=x"), 400, "BAD_REQUEST");
  });

  describe("security", () => {
    securityCases({ scope: "template:read", request: (_w, key) => api("/v1/workspace-folders", { key }) });
  });
});

describe("GET /v1/workspace-folders/{id}", () => {
  describe("security", () => {
    securityCases({
      scope: "template:read",
      request: async (w, key) => api(`/v1/workspace-folders/${(await folderDirect(w)).id}`, { key }),
      crossWorkspace: async (w, other) => api(`/v1/workspace-folders/${(await folderDirect(other)).id}`, { key: w.key }),
    });
  });
});

describe("PATCH /v1/workspace-folders/{id}", () => {
  it("renames (also only the letter case) and moves, with the new path, and back to the root with null", async () => {
    const w = await createTestWorkspace();
    const a = await newFolder(w, "a");
    const b = await newFolder(w, "b");
    const inner = await newFolder(w, "inner", a.id);
    const renamed = await patch(w, a.id, { name: "A" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toMatchObject({ id: a.id, name: "A", path: "A" });
    expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(a.updatedAt));

    const moved = await patch(w, a.id, { parentId: b.id, name: "moved" });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ parentId: b.id, path: "b/moved" });
    expect((await api<Folder>(`/v1/workspace-folders/${inner.id}`, { key: w.key })).body.path).toBe("b/moved/inner");

    const back = await patch(w, a.id, { parentId: null });
    expect(back.status, back.text).toBe(200);
    expect(back.body.parentId).toBeUndefined();
    expect(back.body.path).toBe("moved");
  });

  it("refuses moving a folder into itself or a folder inside it (400), and a taken name there (409)", async () => {
    const w = await createTestWorkspace();
    const top = await newFolder(w, "top");
    const mid = await newFolder(w, "mid", top.id);
    const low = await newFolder(w, "low", mid.id);
    for (const target of [top, mid, low]) {
      const e = expectError(await patch(w, top.id, { parentId: target.id }), 400, "BAD_REQUEST");
      expect(e.details).toEqual([{ path: "parentId", message: "cannot move top into itself or a folder inside it" }]);
    }
    await newFolder(w, "LOW");
    expectError(await patch(w, low.id, { parentId: null }), 409, "CONFLICT");
  });

  it("refuses a move that would put something inside past 20 levels", async () => {
    const w = await createTestWorkspace();
    const deep = await chain(w, 18); // l1 … l18
    const sub = await newFolder(w, "sub");
    await newFolder(w, "child", sub.id); // sub/child: 2 levels
    expect((await patch(w, sub.id, { parentId: deep.id })).status).toBe(200); // l1/…/l18/sub/child: 20 levels
    await patch(w, sub.id, { parentId: null });
    const deeper = await newFolder(w, "l19", deep.id);
    const e = expectError(await patch(w, sub.id, { parentId: deeper.id }), 400, "LIMIT_EXCEEDED");
    expect(e.message).toMatch(/at most 20 levels; .*\/l19\/sub\/child would be at level 21/);
  });

  it("answers 400 for an empty body or unknown fields, and 404 for a target of another workspace", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const f = await newFolder(w, "f");
    expectError(await patch(w, f.id, {}), 400, "BAD_REQUEST");
    expectError(await patch(w, f.id, { name: "g", extra: 1 }), 400, "BAD_REQUEST");
    expectError(await patch(w, f.id, { parentId: (await folderDirect(other)).id }), 404, "NOT_FOUND");
  });

  describe("security", () => {
    securityCases({
      scope: "template:write",
      request: async (w, key) => api(`/v1/workspace-folders/${(await folderDirect(w)).id}`, { method: "PATCH", key, body: { name: "renamed" } }),
      crossWorkspace: async (w, other) => api(`/v1/workspace-folders/${(await folderDirect(other)).id}`, { method: "PATCH", key: w.key, body: { name: "renamed" } }),
    });
  });
});

describe("DELETE /v1/workspace-folders/{id}", () => {
  it("deletes an empty folder; it is gone", async () => {
    const w = await createTestWorkspace();
    const f = await newFolder(w, "empty");
    const res = await del(w, f.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, id: f.id });
    expectError(await api(`/v1/workspace-folders/${f.id}`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await del(w, f.id), 404, "NOT_FOUND");
  });

  it("answers 409 while it holds folders, files or templates, listing them", async () => {
    const w = await createTestWorkspace();
    const brand = await newFolder(w, "brand");
    const sub = await newFolder(w, "fonts", brand.id);
    const css = await newTextFile(w, "print.css", "a{}", brand.id);
    const t = await api("/v1/templates", { key: w.key, body: { name: "Invoice", folderId: brand.id, content: { composition: { root: { type: "text", text: "x" } } } } });
    expect(t.status, t.text).toBe(201);

    const e = expectError(await del(w, brand.id), 409, "CONFLICT");
    expect(e.message).toBe("The folder brand is not empty: it holds 1 folder, 1 file, 1 template; move or delete them first");
    expect(messages(e)).toEqual([`folder brand/fonts (${sub.id})`, `file brand/print.css (${css.id})`, `template ${t.body.id} (Invoice)`]);

    // Emptied, it goes.
    expect((await api(`/v1/templates/${t.body.id}`, { method: "PATCH", key: w.key, body: { folderId: null } })).status).toBe(200);
    expect((await api(`/v1/workspace-files/${css.id}`, { method: "DELETE", key: w.key })).status).toBe(200);
    expect((await del(w, sub.id)).status).toBe(200);
    expect((await del(w, brand.id)).status).toBe(200);
  });

  it("lists at most 20 of what it holds and says how many more", async () => {
    const w = await createTestWorkspace();
    const full = await newFolder(w, "full");
    for (let i = 0; i < 23; i++) await newFolder(w, `f${String(i).padStart(2, "0")}`, full.id);
    const e = expectError(await del(w, full.id), 409, "CONFLICT");
    expect(messages(e)).toHaveLength(21);
    expect(messages(e).at(-1)).toBe("and 3 more");
  });

  describe("security", () => {
    securityCases({
      scope: "template:write",
      request: async (w, key) => api(`/v1/workspace-folders/${(await folderDirect(w)).id}`, { method: "DELETE", key }),
      crossWorkspace: async (w, other) => api(`/v1/workspace-folders/${(await folderDirect(other)).id}`, { method: "DELETE", key: w.key }),
    });
  });
});

describe("concurrent creation", () => {
  it("of one name in one folder, as files and folders: exactly one 201, the others 409", async () => {
    const w = await createTestWorkspace();
    const names = ["Shared.css", "shared.css", "SHARED.CSS", "Shared.Css", "shared.CSS", "sHARED.css"];
    const answers = await Promise.all(names.map((name, i) => (i % 2 ? post(w, { name }) : api("/v1/workspace-files", { key: w.key, body: { name, content: "" } }))));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201), answers.map((a) => a.text).join("\n")).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
  });
});
