import { apiRoute } from "@/lib/http";
import { renderString, StringRenderInput } from "@/lib/renders/string";

// spec: Limits > Request bodies: POST /v1/renders/string takes up to 1,000,000 bytes (413 above, before reading).
export const POST = apiRoute({ scope: "render:create", body: StringRenderInput, bodyLimit: 1_000_000 }, ({ body, req }) => renderString(body, req.signal));
