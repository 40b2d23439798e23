import * as destinations from "@/lib/destinations";
import { apiRoute, created } from "@/lib/http";
import { StorageDestinationList, StorageDestinationTested } from "@/lib/destinations/schemas";

// spec: Endpoints > Storage destinations (scope destination:manage for all); the console uses them with its session.
export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage", summary: "List storage destinations", responses: { 200: StorageDestinationList } }, ({ ctx }) => destinations.listDestinations(ctx));

export const POST = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage", body: destinations.CreateDestinationInput, summary: "Create a storage destination", description: "Checks the credentials with a test upload first.", responses: { 201: StorageDestinationTested } }, async ({ ctx, body }) =>
  created(await destinations.createDestination(ctx, body)),
);
