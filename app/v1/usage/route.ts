import { apiRoute } from "@/lib/http";
import { getUsage, UsageQuery } from "@/lib/usage";
import { Usage } from "@/lib/usage/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "usage:read", query: UsageQuery, summary: "Get the workspace's usage", description: "Without from and to, the current month so far.", responses: { 200: Usage } }, ({ ctx, query }) => getUsage(ctx, query));
