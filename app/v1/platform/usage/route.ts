import { apiRoute } from "@/lib/http";
import { platformUsage, PlatformUsageQuery } from "@/lib/usage";
import { PlatformUsage } from "@/lib/usage/schemas";

export const GET = apiRoute({ auth: "session", query: PlatformUsageQuery, summary: "Every workspace's usage", description: "For the platform's administrators only.", responses: { 200: PlatformUsage } }, ({ ctx, query }) => platformUsage(ctx, query));
