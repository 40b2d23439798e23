import { apiRoute, MiB, Reply } from "@/lib/http";
import { requestHash } from "@/lib/idempotency";
import * as renders from "@/lib/renders";

// spec: Limits > Request bodies: POST /v1/renders takes up to 11 MiB.
export const POST = apiRoute(
  { scope: "render:create", body: renders.CreateRenderInput, bodyLimit: 11 * MiB, idempotency: true },
  async ({ ctx, body, idempotencyKey }) => {
    // why waitMs is left out of "the same request": it says how long to wait, not what to render, so a
    // retry after a timeout may wait longer (spec: Endpoints > Renders rule 4).
    const { waitMs: _wait, ...what } = body;
    const idem = idempotencyKey
      ? { endpoint: "POST /v1/renders", key: idempotencyKey, requestHash: requestHash("POST", "/v1/renders", what) }
      : undefined;
    const { render: r } = await renders.createRender(ctx, renders.renderRequest(ctx, body), idem, body.waitMs);
    return new Reply(renders.hasEnded(r) ? 200 : 202, renders.toRender(r));
  },
);

export const GET = apiRoute({ scope: "render:read", query: renders.RenderListQuery }, ({ ctx, query }) => renders.listRenders(ctx, query));
