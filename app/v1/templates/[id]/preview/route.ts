import { apiRoute, MiB } from "@/lib/http";
import { answerResponse, withConsoleHeaders } from "@/lib/http/file-response";
import { previewTemplate, PreviewInput } from "@/lib/reports";

// spec: Limits > Request bodies: POST /v1/templates/{id}/preview takes up to 30 MiB.
export const POST = apiRoute({
    auth: "apiKeyOrSession",
    scope: "render:create",
    body: PreviewInput,
    bodyLimit: 30 * MiB,
    summary: "Preview a template's draft",
    description: "Renders the current draft with the data given and answers the file (or the HTML) at once; x-render-id and x-page-count name the render. HTML creates no render and uses no allowance; the usage record counts it in htmlPreviews. A workbook template previews as xlsx only: a download that makes no render and counts as a document. Bodies up to 30 MiB.",
    responses: { 200: { contentType: ["application/pdf", "image/png", "text/html", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"], description: "The preview, in the format asked for" } },
  }, async ({ ctx, params, body }) =>
  answerResponse(await previewTemplate(ctx, params.id!, body).catch(withConsoleHeaders)),
);
