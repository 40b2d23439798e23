import { apiRoute } from "@/lib/http";
import { fileResponse } from "@/lib/http/file-response";
import { downloadByToken } from "@/lib/renders";

// Signed links need no credential; the token is the authorisation (spec: Authentication).
export const GET = apiRoute({ auth: "none" }, async ({ params }) => fileResponse(await downloadByToken(params.token!)));
