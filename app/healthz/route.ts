export const dynamic = "force-dynamic";

/** The process is up and serving. */
export function GET() {
  return Response.json({ ok: true });
}
