// ServiceUnavailable: what the console shows instead of its pages while Folio's database does not
// answer: that the service is briefly unavailable, that nothing saved is lost, and a way to retry.
import { Wordmark } from "./wordmark";
import { buttonClasses } from "@/components/ui/button";

export function ServiceUnavailable({ retryHref }: { retryHref: string }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div role="alert" className="w-full max-w-md rounded-lg border border-gray-200 bg-white p-8 text-center shadow-sm">
        <Wordmark className="mx-auto mb-6" />
        <h1 className="text-lg font-semibold text-gray-900">Folio is briefly unavailable</h1>
        <p className="mt-2 text-sm text-gray-600">
          Its database does not answer right now. Nothing you saved is lost. Try again in a few seconds; if this page stays, tell your administrator.
        </p>
        <a href={retryHref} className={buttonClasses("primary", "md", "mt-6")}>
          Try again
        </a>
      </div>
    </main>
  );
}
