import { checkReady } from "@/lib/instance";

export const dynamic = "force-dynamic";

/** The process can serve: its database answers. 503 otherwise, so a balancer takes it out. */
export async function GET() {
  const r = await checkReady();
  return Response.json(r, { status: r.ok ? 200 : 503 });
}
