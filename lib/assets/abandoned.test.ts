import { randomBytes } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { purgeAbandonedUploads } from "@/lib/assets";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { assets, workspaceFiles } from "@/lib/db/schema";
import { readyAssetDirect, registerAsset } from "@/lib/testing/assets";
import { createTestWorkspace } from "@/lib/testing/factories";

const font = () => ({ kind: "font" as const, mediaType: "font/woff2", bytes: randomBytes(20) });
const age = (id: string, hours: number) => db().update(assets).set({ createdAt: sql`now() - ${`${hours} hours`}::interval` }).where(eq(assets.id, id));

describe("retention of assets whose upload never came", () => {
  it("deletes pending assets older than a day, and keeps recent ones, ready ones and ones a workspace file names", async () => {
    const w = await createTestWorkspace();
    const old = (await registerAsset(w.key, font())).body.id as string;
    const recent = (await registerAsset(w.key, font())).body.id as string;
    const named = (await registerAsset(w.key, font())).body.id as string;
    const ready = (await readyAssetDirect(w.id, font())).id;
    for (const id of [old, named, ready]) await age(id, 25);
    await age(recent, 23);
    await db().insert(workspaceFiles).values({ id: newId("fil"), workspaceId: w.id, name: "a.woff2", kind: "asset", assetId: named, mediaType: "font/woff2", size: 20, updatedByType: "system", updatedById: "test" });

    expect(await purgeAbandonedUploads()).toBeGreaterThanOrEqual(1);
    const left = await db().select({ id: assets.id }).from(assets).where(inArray(assets.id, [old, recent, named, ready]));
    expect(left.map((r) => r.id).sort()).toEqual([recent, named, ready].sort());
  });
});
