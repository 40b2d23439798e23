// UserMenu: the signed-in person (name, email), a link to settings, and Sign out.
"use client";
import { LogOut, Settings } from "lucide-react";
import Link from "@/components/ui/link";
import { useState } from "react";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { signOut } from "./auth-client";

export function UserMenu({ name, email }: { name: string; email: string }) {
  const [leaving, setLeaving] = useState(false);
  const initials = (name.trim() || email).split(/[\s@.]+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join("");
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="flex min-w-0 items-center gap-2 rounded-full p-0.5 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-ring sm:rounded-md sm:px-2 sm:py-1"
      >
        <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-accent text-xs font-semibold text-white">
          {initials}
        </span>
        {/* The button's accessible name at every width; from 640 px the name also shows, cut to its box with an
            ellipsis (why two spans: `sm:not-sr-only` would also undo `truncate`, and a long name then widened the page). */}
        <span className="sr-only">{name || email}</span>
        <span aria-hidden="true" className="hidden max-w-40 truncate text-sm font-medium text-gray-900 sm:block" title={name || email}>
          {name || email}
        </span>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-64">
        <DropdownMenuLabel className="text-sm">
          <span className="block truncate font-medium text-gray-900">{name}</span>
          <span className="block truncate font-normal text-gray-600">{email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/settings">
            <Settings aria-hidden="true" className="size-4" /> Settings
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem
          disabled={leaving}
          onSelect={(e) => {
            e.preventDefault();
            setLeaving(true);
            void signOut().catch(() => setLeaving(false));
          }}
        >
          <LogOut aria-hidden="true" className="size-4" /> {leaving ? "Signing out…" : "Sign out"}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
