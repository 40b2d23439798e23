import NextAuth from "next-auth";
import { authOptions, checkingSession } from "@/lib/sessions";
import { refuseAuthPost } from "@/lib/http/auth-guard";
import { addressBucket, clientAddress } from "@/lib/http/client-address";
import { beginRequest, errorAnswer } from "@/lib/http/steps";

type Ctx = { params: Promise<{ nextauth: string[] }> };
type Handler = (req: Request, ctx: Ctx) => Promise<Response>;
let handler: Handler | undefined;

// why: built on first use, so `next build` never reads configuration or secrets.
async function handle(req: Request, ctx: Ctx) {
  handler ??= NextAuth(authOptions()) as unknown as Handler;
  const { result, unavailable } = await checkingSession(() => handler!(req, ctx), addressBucket(clientAddress(req.headers)));
  // why: next-auth answers a session check that met a database outage with "no session" and a
  // cleared cookie; the person stays signed in and is told to retry (503, Retry-After) instead.
  if (unavailable) return errorAnswer(beginRequest(req.headers.get("x-request-id")), unavailable);
  return result;
}

/** A POST from another origin, or a sign-in attempt past the limit, never reaches next-auth. */
async function post(req: Request, ctx: Ctx) {
  const [action] = (await ctx.params).nextauth;
  return (await refuseAuthPost(req, action)) ?? handle(req, ctx);
}

export { handle as GET, post as POST };
