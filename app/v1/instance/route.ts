import { apiRoute } from "@/lib/http";
import { getInstance } from "@/lib/instance";

export const GET = apiRoute({ auth: "none" }, () => getInstance());
