import { apiRoute } from "@/lib/http";
import { getUsage, UsageQuery } from "@/lib/usage";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "usage:read", query: UsageQuery }, ({ ctx, query }) => getUsage(ctx, query));
