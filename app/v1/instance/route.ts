import { apiRoute } from "@/lib/http";
import { getInstance, Instance } from "@/lib/instance";

export const GET = apiRoute({ auth: "none", summary: "Describe this instance", description: "Its name, version, deployment mode and public URL.", responses: { 200: Instance } }, () => getInstance());
