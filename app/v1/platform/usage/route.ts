import { apiRoute } from "@/lib/http";
import { platformUsage, PlatformUsageQuery } from "@/lib/usage";

export const GET = apiRoute({ auth: "session", query: PlatformUsageQuery }, ({ ctx, query }) => platformUsage(ctx, query));
