import * as destinations from "@/lib/destinations";
import { apiRoute } from "@/lib/http";
import { deleteDestination } from "@/lib/renders/destinations";
import { StorageDestination, StorageDestinationTested } from "@/lib/destinations/schemas";
import { Deleted } from "@/lib/http/openapi/schemas";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage", summary: "Get a storage destination", responses: { 200: StorageDestination } }, ({ ctx, params }) => destinations.getDestination(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage", body: destinations.UpdateDestinationInput, summary: "Change a storage destination", description: "A change of where or how to write checks it with a test upload first.", responses: { 200: StorageDestinationTested } }, ({ ctx, params, body }) =>
  destinations.updateDestination(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage", summary: "Delete a storage destination", responses: { 200: Deleted } }, ({ ctx, params }) => deleteDestination(ctx, params.id!));
