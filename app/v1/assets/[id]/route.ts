import { apiRoute } from "@/lib/http";
import { Deleted } from "@/lib/http/openapi/schemas";
import * as assets from "@/lib/assets";

// why no base scope on GET: asset:manage, or template:content for images and SVG (the verb checks which).
export const GET = apiRoute({ auth: "apiKeyOrSession", summary: "Get an asset", description: "A ready asset carries a fresh five-minute download link. Needs asset:manage, or template:content for images and SVG.", responses: { 200: assets.Asset } }, ({ ctx, params }) => assets.getAsset(ctx, params.id!));

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "asset:manage", summary: "Delete an asset", description: "Refused with 409 while a template or workspace file uses it.", responses: { 200: Deleted } }, ({ ctx, params }) => assets.deleteAsset(ctx, params.id!));
