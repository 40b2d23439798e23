import { apiRoute } from "@/lib/http";
import { listReports, ReportList } from "@/lib/reports";

export const GET = apiRoute(
  {
    auth: "apiKeyOrSession",
    scope: "template:read",
    summary: "List reports",
    description: "Every template name with a published version, by name, as the Reports API renders it: the newest published version among the templates of that name, its kind, formats and data schema. Not paged.",
    responses: { 200: ReportList },
  },
  ({ ctx }) => listReports(ctx),
);
