import { AuditListQuery, listAuditEvents } from "@/lib/audit";
import { AuditEventPage } from "@/lib/audit/schemas";
import { apiRoute } from "@/lib/http";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "audit:read", query: AuditListQuery, summary: "List audit events", description: "Newest first.", responses: { 200: AuditEventPage } }, ({ ctx, query }) =>
  listAuditEvents(ctx, query),
);
