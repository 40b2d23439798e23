import { apiRoute, MiB } from "@/lib/http";
import { answerResponse } from "@/lib/http/file-response";
import { renderReport, ReportRenderInput } from "@/lib/reports";

// spec: Limits > Request bodies: POST /v1/reports/render takes up to 10 MiB.
export const POST = apiRoute(
  {
    scope: "render:create",
    body: ReportRenderInput,
    bodyLimit: 10 * MiB,
    idempotency: true,
    summary: "Render a report",
    description: "Renders a published template version with data and answers the file itself once it is done; x-render-id and x-page-count name the render of a PDF or PNG. A workbook template answers an XLSX download, which makes no render and counts as a document. Bodies up to 10 MiB.",
    responses: { 200: { contentType: ["application/pdf", "image/png", "text/html", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"], description: "The report, in the format asked for" } },
  },
  async ({ ctx, body, idempotencyKey }) => answerResponse(await renderReport(ctx, body, idempotencyKey)),
);
