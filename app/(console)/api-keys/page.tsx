import { KeyRound } from "lucide-react";
import type { Metadata } from "next";
import { CreateKeyDialog } from "@/components/api-keys/create-key-dialog";
import { KeysTable } from "@/components/api-keys/keys-table";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import type { SearchParams } from "@/components/ui/pager";
import { config } from "@/lib/config";
import { requireConsole, requireScopeOrRefuse, requireSectionOrRefuse } from "@/lib/console";
import * as keys from "@/lib/keys";
import { createKeyAction, deleteKeyAction, revokeKeyAction, rotateKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys" };

/** The workspace's API keys (owners and admins): list, create, rotate, revoke, delete. */
export default async function ApiKeysPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const s = await requireConsole();
  requireSectionOrRefuse(s, "/api-keys");
  requireScopeOrRefuse(s, "admin:manage", "manage API keys");
  const { items } = await keys.listKeys(s.ctx);
  const publicUrl = config().PUBLIC_URL;
  // why in the header whatever the list holds: the dialog shows the new secret after the list
  // refreshes, so it must stay in one place of the tree (a move would remount it and lose the secret).
  const create = <CreateKeyDialog create={createKeyAction} publicUrl={publicUrl} defaultOpen={(await searchParams).create === "1"} />;
  return (
    <>
      <PageHeader
        title="API keys"
        description={`Programs use the API of ${s.workspace.name} with these keys, in the x-api-key header. A key sees only this workspace, within its scopes.`}
        actions={create}
      />
      {items.length === 0 ? (
        <EmptyState icon={KeyRound} title="No API keys yet" text="Create a key (above) to render documents and manage templates from your own programs." />
      ) : (
        <KeysTable items={items} actions={{ publicUrl, rotate: rotateKeyAction, revoke: revokeKeyAction, remove: deleteKeyAction }} />
      )}
    </>
  );
}
