import { requestHash } from "../idempotency";
import * as renders from "../renders";
import { apiRoute } from "./api-route";
import { MiB } from "./body";
import { Reply } from "./reply";

/**
 * POST /v1/renders: the handler the Next.js route exports (app/v1/renders/route.ts) and the web
 * server's hot path runs without Next.js (lib/server/web.ts), so both answer alike. why here and
 * not in the route file: lib/server stands below app/, and imports only what stands below it.
 */
// spec: Limits > Request bodies: POST /v1/renders takes up to 11 MiB.
export const createRenderRoute = apiRoute(
  {
    scope: "render:create",
    body: renders.CreateRenderInput,
    bodyLimit: 11 * MiB,
    idempotency: true,
    summary: "Create a render",
    description:
      "Renders one document from exactly one source: `document` (HTML and its settings), `templateVersionId` with `data`, `preview` (a template's draft) or `nodeDocument`. " +
      "Answers 202 with the queued render, or 200 with the ended render when `waitMs` was long enough. Bodies up to 11 MiB.",
    responses: { 200: renders.Render, 202: renders.Render },
  },
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
