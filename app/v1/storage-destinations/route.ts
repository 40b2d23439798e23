import * as destinations from "@/lib/destinations";
import { apiRoute, created } from "@/lib/http";

// spec: Endpoints > Storage destinations (scope destination:manage for all); the console uses them with its session.
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage" }, ({ ctx }) => destinations.listDestinations(ctx));

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage", body: destinations.CreateDestinationInput }, async ({ ctx, body }) =>
  created(await destinations.createDestination(ctx, body)),
);
