import { apiRoute, MiB } from "@/lib/http";
import { answerResponse } from "@/lib/http/file-response";
import { renderReport, ReportRenderInput } from "@/lib/reports";

// spec: Limits > Request bodies: POST /v1/reports/render takes up to 10 MiB.
export const POST = apiRoute(
  { scope: "render:create", body: ReportRenderInput, bodyLimit: 10 * MiB, idempotency: true },
  async ({ ctx, body, idempotencyKey }) => answerResponse(await renderReport(ctx, body, idempotencyKey)),
);
