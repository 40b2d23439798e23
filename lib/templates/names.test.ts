import { describe, expect, it } from "vitest";
import { roleScopes } from "@/lib/auth/scopes";
import { systemCtx } from "@/lib/auth/context";
import { createTestWorkspace } from "@/lib/testing/factories";
import * as templates from "@/lib/templates";

const content = { composition: { root: { type: "text" as const, text: "x" } } };

describe("templateNames (names beside renders in the console)", () => {
  it("answers the current names of the workspace's templates by id, leaving out deleted and foreign ones", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const ctx = systemCtx(w.id, "test");
    const invoice = await templates.createTemplate(ctx, { name: "Invoice", content });
    const receipt = await templates.createTemplate(ctx, { name: "Receipt", content });
    const gone = await templates.createTemplate(ctx, { name: "Gone", content });
    const foreign = await templates.createTemplate(systemCtx(other.id, "test"), { name: "Theirs", content });
    await templates.updateTemplate(ctx, receipt.id, { name: "Receipt v2" });
    await templates.deleteTemplates(ctx, [gone.id]);

    const names = await templates.templateNames(ctx, [invoice.id, receipt.id, invoice.id, gone.id, foreign.id, "tpl_unknown"]);
    expect(Object.fromEntries(names)).toEqual({ [invoice.id]: "Invoice", [receipt.id]: "Receipt v2" });
    expect((await templates.templateNames(ctx, [])).size).toBe(0);
  });

  it("needs template:read", async () => {
    const w = await createTestWorkspace();
    const ctx = { workspaceId: w.id, actor: { type: "apiKey" as const, keyId: w.keyId, scopes: roleScopes.owner.filter((s) => s !== "template:read") } };
    await expect(templates.templateNames(ctx, ["tpl_x"])).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
