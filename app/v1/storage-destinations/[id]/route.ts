import * as destinations from "@/lib/destinations";
import { apiRoute } from "@/lib/http";
import { deleteDestination } from "@/lib/renders/destinations";

export const GET = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage" }, ({ ctx, params }) => destinations.getDestination(ctx, params.id!));

export const PATCH = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage", body: destinations.UpdateDestinationInput }, ({ ctx, params, body }) =>
  destinations.updateDestination(ctx, params.id!, body),
);

export const DELETE = apiRoute({ auth: "apiKeyOrSession", scope: "destination:manage" }, ({ ctx, params }) => deleteDestination(ctx, params.id!));
