import { PageHeader } from "@/components/ui/page-header";
import { requireConsole } from "@/lib/console";

export const metadata = { title: "Home" };

/** Console home. The getting-started content comes with its own part of issue 9. */
export default async function Home() {
  const s = await requireConsole();
  return <PageHeader title="Welcome" description={`You are signed in to ${s.workspace.name} as ${s.user.name}.`} />;
}
