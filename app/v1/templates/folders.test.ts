import { describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { folderDirect, newFolder } from "@/lib/testing/workspace-files";

type Template = { id: string; name: string; folderId?: string };

const content = { composition: { root: { type: "text", text: "x" } } };
const create = (w: TestWorkspace, body: Record<string, unknown>) => api<Template>("/v1/templates", { key: w.key, body: { name: "T", content, ...body } });
const names = async (w: TestWorkspace, query: string) => (await api<{ items: Template[] }>(`/v1/templates${query}`, { key: w.key })).body.items.map((t) => t.name).sort();

describe("templates in workspace folders", () => {
  it("creates a template in a folder, moves it (null: the root) and lists a folder's templates", async () => {
    const w = await createTestWorkspace();
    const brand = await newFolder(w, "brand");
    const other = await newFolder(w, "other");
    const res = await create(w, { name: "Invoice", folderId: brand.id });
    expect(res.status, res.text).toBe(201);
    expect(res.body.folderId).toBe(brand.id);
    expect((await api<Template>(`/v1/templates/${res.body.id}`, { key: w.key })).body.folderId).toBe(brand.id);
    const atRoot = await create(w, { name: "Letter" });
    expect(atRoot.body.folderId).toBeUndefined();

    expect(await names(w, `?folderId=${brand.id}`)).toEqual(["Invoice"]);
    expect(await names(w, "?folderId=root")).toEqual(["Letter"]);
    expect(await names(w, "")).toEqual(["Invoice", "Letter"]);

    const moved = await api<Template>(`/v1/templates/${res.body.id}`, { method: "PATCH", key: w.key, body: { folderId: other.id } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.folderId).toBe(other.id);
    expect(await names(w, `?folderId=${brand.id}`)).toEqual([]);
    const toRoot = await api<Template>(`/v1/templates/${res.body.id}`, { method: "PATCH", key: w.key, body: { folderId: null } });
    expect(toRoot.body.folderId).toBeUndefined();
    expect(await names(w, "?folderId=root")).toEqual(["Invoice", "Letter"]);
  });

  it("answers 404 for a folder of another workspace or none, when creating, moving or listing", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const theirs = await folderDirect(other);
    expect(expectError(await create(w, { folderId: theirs.id }), 404, "NOT_FOUND").message).toContain(theirs.id);
    expectError(await create(w, { folderId: "fld_nope" }), 404, "NOT_FOUND");
    const t = await create(w, {});
    expectError(await api(`/v1/templates/${t.body.id}`, { method: "PATCH", key: w.key, body: { folderId: theirs.id } }), 404, "NOT_FOUND");
    expectError(await api(`/v1/templates?folderId=${theirs.id}`, { key: w.key }), 404, "NOT_FOUND");
  });
});
