import { ShieldAlert } from "lucide-react";
import Link from "@/components/ui/link";
import { buttonClasses } from "@/components/ui/button";
import { consoleSession, currentPath, refusalMessage, refusalNote, sectionOf } from "@/lib/console";

export const metadata = { title: "Not allowed" };

/**
 * What a page shows (with HTTP 403) when requireScopeOrRefuse or requireSectionOrRefuse refuses
 * the person's role: what their role cannot do and whom to ask.
 */
export default async function Forbidden() {
  let message = refusalNote().message;
  if (!message) {
    const s = await consoleSession();
    const section = sectionOf(await currentPath());
    message = s ? refusalMessage(s.role, section?.action ?? "open this page") : "You cannot open this page.";
  }
  return (
    <div className="mx-auto max-w-xl rounded-lg border border-gray-200 bg-white p-8 text-center">
      <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-warning-soft">
        <ShieldAlert aria-hidden="true" className="size-6 text-warning" />
      </div>
      <h1 className="text-xl font-semibold text-gray-900">You don’t have access to this page</h1>
      <p className="mt-2 text-sm text-gray-700">{message}</p>
      <Link href="/" className={buttonClasses("secondary", "md", "mt-6")}>
        Go to Home
      </Link>
    </div>
  );
}
