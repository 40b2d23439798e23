import { getServerSession } from "next-auth";
import Link from "next/link";
import { authOptions } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/** Console home. The full console comes with its own issue; this page signs people in and out. */
export default async function Home() {
  const session = await getServerSession(authOptions());
  return (
    <main style={{ maxWidth: 640, margin: "4rem auto", padding: "0 1rem" }}>
      <h1>Folio</h1>
      <p>Document rendering service. The HTTP API lives under <code>/v1</code>; see docs/api.md.</p>
      {session?.user ? (
        <p>
          Signed in as {session.user.email}. <Link href="/api/auth/signout">Sign out</Link>
        </p>
      ) : (
        <p>
          <Link href="/api/auth/signin">Sign in</Link> to the console.
        </p>
      )}
    </main>
  );
}
