import { apiRoute, Reply } from "@/lib/http";
import * as assets from "@/lib/assets";

// why no base scope: asset:manage, or template:content for images and SVG (the verbs check which).
export const POST = apiRoute(
  {
    auth: "apiKeyOrSession",
    body: assets.RegisterAssetInput,
    summary: "Register an asset",
    description: "Registers a file by its size and sha256 and answers where to upload its bytes; an asset whose bytes the workspace already has is ready at once. Needs asset:manage, or template:content for images and SVG.",
    responses: { 201: assets.RegisteredAsset },
  }, async ({ ctx, body }) =>
  new Reply(201, await assets.registerAsset(ctx, body)),
);

export const GET = apiRoute({ auth: "apiKeyOrSession", query: assets.AssetListQuery, summary: "List assets", description: "Newest first. Needs asset:manage, or template:content (images and SVG only).", responses: { 200: assets.AssetPage } }, ({ ctx, query }) => assets.listAssets(ctx, query));
