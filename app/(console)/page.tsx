import { ArrowRight, FileText } from "lucide-react";
import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { GettingStarted } from "@/components/home/getting-started";
import { LiveRefresh } from "@/components/renders/live-refresh";
import { isRunning } from "@/components/renders/render-state-badge";
import { RendersTable } from "@/components/renders/renders-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { config } from "@/lib/config";
import { can, requireConsole } from "@/lib/console";
import * as keys from "@/lib/keys";
import * as renders from "@/lib/renders";
import { templateNames } from "@/lib/templates";

export const metadata: Metadata = { title: "Home" };

/** Console home: getting started for a new workspace (a key, a curl that renders Hello, the editor) and the latest renders. */
export default async function Home() {
  const s = await requireConsole();
  const mayCreateKeys = can(s, "admin:manage");
  const [recent, keyList] = await Promise.all([
    can(s, "render:read") ? renders.listRenders(s.ctx, { limit: 5 }) : undefined,
    mayCreateKeys ? keys.listKeys(s.ctx) : undefined,
  ]);
  const names = recent && can(s, "template:read") ? await templateNames(s.ctx, recent.items.flatMap((r) => (r.templateId ? [r.templateId] : []))) : new Map<string, string>();
  const activeKeys = keyList?.items.filter((k) => k.status === "active").length;

  return (
    <>
      <PageHeader title={`Welcome to ${s.workspace.name}`} description={`Signed in as ${s.user.email}.`} />
      <div className="space-y-8">
        <GettingStarted publicUrl={config().PUBLIC_URL} workspaceName={s.workspace.name} mayCreateKeys={mayCreateKeys} activeKeys={activeKeys} />
        {recent && (
          <section aria-labelledby="recent-renders">
            <div className="mb-3 flex items-end justify-between gap-4">
              <h2 id="recent-renders" className="text-lg font-semibold text-gray-900">
                Recent renders
              </h2>
              {recent.items.length > 0 && (
                <Link href="/renders" className="inline-flex items-center gap-1 text-sm font-medium text-accent hover:underline">
                  All renders <ArrowRight aria-hidden="true" className="size-4" />
                </Link>
              )}
            </div>
            <LiveRefresh active={recent.items.some(isRunning)} />
            {recent.items.length === 0 ? (
              <EmptyState icon={FileText} title="No renders yet" text="Run the command above: your first render appears here." />
            ) : (
              <RendersTable items={recent.items} names={names} label="Recent renders" />
            )}
          </section>
        )}
      </div>
    </>
  );
}
