import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/session";

type Handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;
let handler: Handler | undefined;

// why: built on first use, so `next build` never reads configuration or secrets.
async function handle(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  handler ??= NextAuth(authOptions()) as unknown as Handler;
  return handler(req, ctx);
}

export { handle as GET, handle as POST };
