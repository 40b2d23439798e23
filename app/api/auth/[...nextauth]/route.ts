import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/session";
import { refuseExcessSignIn } from "@/lib/http/sign-in-limit";

type Ctx = { params: Promise<{ nextauth: string[] }> };
type Handler = (req: Request, ctx: Ctx) => Promise<Response>;
let handler: Handler | undefined;

// why: built on first use, so `next build` never reads configuration or secrets.
async function handle(req: Request, ctx: Ctx) {
  handler ??= NextAuth(authOptions()) as unknown as Handler;
  return handler(req, ctx);
}

/** A POST to signin/* or callback/* is a sign-in attempt; past the limit it never reaches the password check. */
async function post(req: Request, ctx: Ctx) {
  const [action] = (await ctx.params).nextauth;
  if (action === "signin" || action === "callback") {
    const refused = await refuseExcessSignIn(req);
    if (refused) return refused;
  }
  return handle(req, ctx);
}

export { handle as GET, post as POST };
