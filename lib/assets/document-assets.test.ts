import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assetRefsForDocument, readyAssets } from "@/lib/assets";
import { blobKey } from "@/lib/documents/asset-refs";
import { systemCtx } from "@/lib/auth/context";
import { db } from "@/lib/db/client";
import { renderRequest, CreateRenderInput } from "@/lib/renders";
import { PNG_1X1, readyAssetDirect, registerAsset, sha256Hex } from "@/lib/testing/assets";
import { createTestWorkspace } from "@/lib/testing/factories";
import { expectError } from "@/lib/testing/http";
import { createRender } from "@/lib/testing/renders";
import { AppError } from "@/lib/errors";

const png = { kind: "image" as const, mediaType: "image/png", filename: "logo.png", bytes: PNG_1X1 };

describe("caller HTML with document.assetIds", () => {
  it("gives the render one asset entry per ready asset: named and labelled by its id, its blob's key", async () => {
    const w = await createTestWorkspace();
    const a = await readyAssetDirect(w.id, png);
    const refs = await assetRefsForDocument(db(), w.id, [a.id, a.id]);
    expect(refs).toEqual([{ name: a.id, key: blobKey(w.id, sha256Hex(PNG_1X1)), mediaType: "image/png", size: PNG_1X1.byteLength, sha256: sha256Hex(PNG_1X1), label: a.id }]);

    const input = CreateRenderInput.parse({ document: { html: `<img src="http://assets.invalid/${a.id}">`, assetIds: [a.id] } });
    const prepared = await renderRequest(systemCtx(w.id, "test"), input).prepare();
    expect(prepared.assets).toEqual(refs);
    const plain = await renderRequest(systemCtx(w.id, "test"), CreateRenderInput.parse({ document: { html: "<p>x</p>" } })).prepare();
    expect(plain.assets).toBeUndefined();
  });

  it("refuses unknown, pending and other workspaces' ids with 400 ASSET_INVALID, one detail per id at its index", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const ready = await readyAssetDirect(w.id, png);
    const pending = await registerAsset(w.key, { ...png, bytes: randomBytes(10) });
    const foreign = await readyAssetDirect(other.id, png);
    const ids = [ready.id, "ast_unknown", pending.body.id, foreign.id];
    const e = (await assetRefsForDocument(db(), w.id, ids).catch((x: unknown) => x)) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe("ASSET_INVALID");
    expect(e.details).toEqual([
      { path: "document.assetIds.1", message: "no asset with id ast_unknown" },
      { path: "document.assetIds.2", message: `asset ${pending.body.id} is still pending: upload its file first` },
      { path: "document.assetIds.3", message: `no asset with id ${foreign.id}` },
    ]);

    const res = await createRender(w.key, { document: { html: "<p>x</p>", assetIds: ids } });
    const err = expectError(res, 400, "ASSET_INVALID");
    expect(err.details).toHaveLength(3);

    const map = await readyAssets(db(), w.id, ids);
    expect([...map.keys()]).toEqual([ready.id]);
  });
});
