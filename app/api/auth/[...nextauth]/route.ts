import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/session";
import { refuseAuthPost } from "@/lib/http/auth-guard";

type Ctx = { params: Promise<{ nextauth: string[] }> };
type Handler = (req: Request, ctx: Ctx) => Promise<Response>;
let handler: Handler | undefined;

// why: built on first use, so `next build` never reads configuration or secrets.
async function handle(req: Request, ctx: Ctx) {
  handler ??= NextAuth(authOptions()) as unknown as Handler;
  return handler(req, ctx);
}

/** A POST from another origin, or a sign-in attempt past the limit, never reaches next-auth. */
async function post(req: Request, ctx: Ctx) {
  const [action] = (await ctx.params).nextauth;
  return (await refuseAuthPost(req, action)) ?? handle(req, ctx);
}

export { handle as GET, post as POST };
