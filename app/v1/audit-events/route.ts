import { listAuditEvents } from "@/lib/audit";
import { apiRoute } from "@/lib/http";
import { PageQuery } from "@/lib/paging";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "audit:read", query: PageQuery }, ({ ctx, query }) =>
  listAuditEvents(ctx, query),
);
