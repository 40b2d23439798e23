import { apiRoute } from "@/lib/http";
import { fileResponse } from "@/lib/http/file-response";
import * as renders from "@/lib/renders";

// why a session too: the console's render page downloads the file with the person's cookie.
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "render:read" }, async ({ ctx, params }) =>
  fileResponse(await renders.getRenderFile(ctx, params.id!)),
);
