import { AuditListQuery, listAuditEvents } from "@/lib/audit";
import { apiRoute } from "@/lib/http";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "audit:read", query: AuditListQuery }, ({ ctx, query }) =>
  listAuditEvents(ctx, query),
);
