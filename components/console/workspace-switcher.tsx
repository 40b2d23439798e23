// WorkspaceSwitcher: the header's workspace name; for a person in several workspaces, a menu that
// switches (the choice is kept in the session, checked by the server) and reloads the section.
"use client";
import { Check, ChevronsUpDown } from "lucide-react";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Spinner } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import { roleLabels, sectionOf, type Role } from "@/lib/console/sections";
import { switchWorkspace } from "./auth-client";

export type WorkspaceChoice = { id: string; name: string; role: Role };

export function WorkspaceSwitcher({ current, workspaces }: { current: { id: string; name: string }; workspaces: WorkspaceChoice[] }) {
  const pathname = usePathname();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const name = <span className="truncate">{current.name}</span>;
  if (workspaces.length < 2) {
    return <span className="flex min-w-0 items-center text-sm font-medium text-gray-900">{name}</span>;
  }
  const choose = async (id: string) => {
    if (id === current.id) return;
    setBusy(true);
    try {
      await switchWorkspace(id);
      // why the section's start: an id in the address (a template) belongs to the workspace left.
      window.location.assign(sectionOf(pathname)?.href ?? "/");
    } catch (e) {
      setBusy(false);
      toast.error("Could not switch workspace", e instanceof Error ? e.message : undefined);
    }
  };
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        aria-label={`Workspace: ${current.name}. Switch workspace`}
        aria-busy={busy || undefined}
        className="flex min-w-0 items-center gap-1.5 rounded-md px-2 py-1.5 text-sm font-medium text-gray-900 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-ring"
      >
        {name}
        {busy ? <Spinner className="text-gray-500" /> : <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-gray-500" />}
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-w-72">
        <DropdownMenuLabel>Workspaces</DropdownMenuLabel>
        {workspaces.map((w) => (
          <DropdownMenuItem key={w.id} onSelect={() => void choose(w.id)} aria-current={w.id === current.id ? "true" : undefined}>
            <Check aria-hidden="true" className={w.id === current.id ? "size-4 text-accent" : "size-4 invisible"} />
            <span className="min-w-0 flex-1 truncate">{w.name}</span>
            <span className="text-xs text-gray-600">{roleLabels[w.role]}</span>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
