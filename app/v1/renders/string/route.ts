import { apiRoute } from "@/lib/http";
import { renderString, StringRenderInput } from "@/lib/renders/string";
import { StringRenderResult } from "@/lib/renders/string";

// spec: Limits > Request bodies: POST /v1/renders/string takes up to 1,000,000 bytes (413 above, before reading).
export const POST = apiRoute({ scope: "render:create", body: StringRenderInput, bodyLimit: 1_000_000, summary: "Render a template string to HTML", description: "Renders a Handlebars string with data in the sandbox and answers the HTML; no render is created and no allowance is used; the usage record counts it in stringRenders. Bodies up to 1,000,000 bytes.", responses: { 200: StringRenderResult } }, ({ ctx, body, req }) => renderString(ctx, body, req.signal));
