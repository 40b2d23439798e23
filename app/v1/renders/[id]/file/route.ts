import { apiRoute } from "@/lib/http";
import { fileResponse } from "@/lib/http/file-response";
import * as renders from "@/lib/renders";

// why a session too: the console's render page downloads the file with the person's cookie.
export const GET = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "render:read",
    summary: "Download a render's file",
    responses: { 200: { contentType: ["application/pdf", "image/png", "image/jpeg"], description: "The render's file, in its format" } },
  }, async ({ ctx, params }) =>
  fileResponse(await renders.getRenderFile(ctx, params.id!)),
);
