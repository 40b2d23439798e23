import { apiRoute } from "@/lib/http";
import { createRenderRoute } from "@/lib/http/create-render";
import * as renders from "@/lib/renders";

// The handler is shared with the web server's hot path, which runs it without Next.js.
export const POST = createRenderRoute;

export const GET = apiRoute(
  { scope: "render:read", query: renders.RenderListQuery, summary: "List renders", description: "Newest first; without `source`, every source but editorPreview.", responses: { 200: renders.RenderPage } }, ({ ctx, query }) => renders.listRenders(ctx, query));
