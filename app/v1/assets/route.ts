import { apiRoute, Reply } from "@/lib/http";
import * as assets from "@/lib/assets";

// why no base scope: asset:manage, or template:content for images and SVG (the verbs check which).
export const POST = apiRoute({ auth: "apiKeyOrSession", body: assets.RegisterAssetInput }, async ({ ctx, body }) =>
  new Reply(201, await assets.registerAsset(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", query: assets.AssetListQuery }, ({ ctx, query }) => assets.listAssets(ctx, query));
