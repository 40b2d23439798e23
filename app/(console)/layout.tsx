import Link from "@/components/ui/link";
import type { ReactNode } from "react";
import { MobileNav, SideNav } from "@/components/console/main-nav";
import { UserMenu } from "@/components/console/user-menu";
import { Wordmark } from "@/components/console/wordmark";
import { WorkspaceSwitcher } from "@/components/console/workspace-switcher";
import { ToastProvider } from "@/components/ui/toast";
import { ServiceUnavailable } from "@/components/console/service-unavailable";
import { currentPath, isPlatformAdmin, requireConsoleOrUnavailable } from "@/lib/console";

export const dynamic = "force-dynamic";

/** The console's shell: header (wordmark, workspace, person), navigation by role, and the page. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const s = await requireConsoleOrUnavailable();
  if (s === "unavailable") return <ServiceUnavailable retryHref={await currentPath()} />;
  return (
    <ToastProvider>
      <a
        href="#content"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 text-sm font-medium text-accent shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      <div className="flex min-h-screen flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-gray-200 bg-white px-3 sm:gap-4 sm:px-4">
          <MobileNav role={s.role} platformAdmin={isPlatformAdmin(s)} />
          <Link href="/" aria-label="Folio home" className="rounded-md">
            <Wordmark />
          </Link>
          <span aria-hidden="true" className="text-gray-300">
            /
          </span>
          <div className="flex min-w-0 flex-1 items-center">
            <WorkspaceSwitcher current={s.workspace} workspaces={s.workspaces} />
          </div>
          <UserMenu name={s.user.name} email={s.user.email} />
        </header>
        <div className="flex flex-1">
          <SideNav role={s.role} platformAdmin={isPlatformAdmin(s)} />
          <main id="content" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-8 sm:py-8">
            <div className="mx-auto max-w-6xl">
              {s.workspace.suspended && (
                <p role="status" className="mb-6 rounded-md border border-danger/40 bg-danger-soft p-3 text-sm text-danger">
                  This workspace is suspended by the platform&rsquo;s administrators: its renders, its API keys and every change are refused.
                  You can still read everything and download its files.
                </p>
              )}
              {children}
            </div>
          </main>
        </div>
      </div>
    </ToastProvider>
  );
}
