// MainNav: the console's sections a role may open (lib/console/sections.ts), as a side bar from
// 768 px and behind a menu button below that.
"use client";
import { BarChart3, BookOpen, Building2, ClipboardList, FileText, FolderOpen, HardDriveUpload, Home, ImageIcon, KeyRound, Menu, Printer, Settings, Users, Webhook, X, type LucideIcon } from "lucide-react";
import Link from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { cn } from "@/components/ui/cn";
import { sections, type Role } from "@/lib/console/sections";

const icons: Record<string, LucideIcon> = {
  "/": Home,
  "/templates": FileText,
  "/files": FolderOpen,
  "/renders": Printer,
  "/assets": ImageIcon,
  "/api-keys": KeyRound,
  "/destinations": HardDriveUpload,
  "/webhooks": Webhook,
  "/people": Users,
  "/usage": BarChart3,
  "/audit": ClipboardList,
  "/settings": Settings,
  "/reference": BookOpen,
  "/platform": Building2,
};

function isCurrent(pathname: string, href: string) {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

type NavProps = { role: Role; platformAdmin: boolean };

function NavLinks({ role, platformAdmin, pathname }: NavProps & { pathname: string }) {
  return (
    <ul className="space-y-1">
      {sections
        .filter((s) => s.roles.includes(role) && (!s.platformAdmin || platformAdmin))
        .map((s) => {
          const Icon = icons[s.href] ?? FileText;
          const current = isCurrent(pathname, s.href);
          return (
            <li key={s.href}>
              <Link
                href={s.href}
                aria-current={current ? "page" : undefined}
                className={cn(
                  "flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium",
                  current ? "bg-accent-soft text-accent" : "text-gray-700 hover:bg-gray-100 hover:text-gray-900",
                )}
              >
                <Icon aria-hidden="true" className="size-4 shrink-0" />
                {s.label}
              </Link>
            </li>
          );
        })}
    </ul>
  );
}

/** The side bar (768 px and wider). */
export function SideNav({ role, platformAdmin }: NavProps) {
  const pathname = usePathname();
  return (
    <nav aria-label="Console" className="hidden w-56 shrink-0 border-r border-gray-200 bg-white px-3 py-4 md:block">
      <NavLinks role={role} platformAdmin={platformAdmin} pathname={pathname} />
    </nav>
  );
}

/** The menu button and the panel it opens (below 768 px). */
export function MobileNav({ role, platformAdmin }: NavProps) {
  const pathname = usePathname();
  // why the path it was opened on: a link leads to another page, and the panel must not stay open over it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  return (
    <div className="md:hidden">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="mobile-nav"
        onClick={() => setOpenOn(open ? null : pathname)}
        className="flex size-10 items-center justify-center rounded-md text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-ring"
      >
        {open ? <X aria-hidden="true" className="size-5" /> : <Menu aria-hidden="true" className="size-5" />}
        <span className="sr-only">Menu</span>
      </button>
      {open && (
        <nav id="mobile-nav" aria-label="Console" className="absolute inset-x-0 top-14 z-30 border-b border-gray-200 bg-white px-3 py-3 shadow-lg">
          <NavLinks role={role} platformAdmin={platformAdmin} pathname={pathname} />
        </nav>
      )}
    </div>
  );
}
