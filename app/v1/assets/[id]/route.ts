import { apiRoute } from "@/lib/http";
import * as assets from "@/lib/assets";

// why no base scope on GET: asset:manage, or template:content for images and SVG (the verb checks which).
export const GET = apiRoute({ auth: "apiKeyOrSession" }, ({ ctx, params }) => assets.getAsset(ctx, params.id!));

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "asset:manage" }, ({ ctx, params }) => assets.deleteAsset(ctx, params.id!));
