import { apiRoute, MiB } from "@/lib/http";
import { answerResponse, withConsoleHeaders } from "@/lib/http/file-response";
import { previewTemplate, PreviewInput } from "@/lib/reports";

// spec: Limits > Request bodies: POST /v1/templates/{id}/preview takes up to 30 MiB.
export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "render:create", body: PreviewInput, bodyLimit: 30 * MiB }, async ({ ctx, params, body }) =>
  answerResponse(await previewTemplate(ctx, params.id!, body).catch(withConsoleHeaders)),
);
