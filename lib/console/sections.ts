import type { Role } from "../db/schema";

export type { Role };

/**
 * The console's sections: the header's navigation and the refusal a page shows to a role that may
 * not open it both come from this table, so a link is never shown where the page would refuse.
 * Pure data (the navigation, a client component, imports it too).
 */
export type Section = {
  href: string;
  label: string;
  /** Roles that may open the section. */
  roles: readonly Role[];
  /** What the refusal says a role cannot do: "Your role (member) cannot manage API keys." */
  action: string;
  /**
   * Only platform administrators (the user's platform-admin flag, not a workspace role) see the
   * link and may open the section; everyone else gets the refusal.
   */
  platformAdmin?: true;
};

const everyone: readonly Role[] = ["owner", "admin", "member", "content_editor"];

export const sections: readonly Section[] = [
  { href: "/", label: "Home", roles: everyone, action: "open the console" },
  { href: "/templates", label: "Templates", roles: everyone, action: "open templates" },
  // Every role reads workspace files; content editors (no template:write) only read.
  { href: "/files", label: "Files", roles: everyone, action: "open workspace files" },
  { href: "/renders", label: "Renders", roles: everyone, action: "see renders" },
  // spec: asset:manage: members, admins and owners (content editors pick images in the template editor).
  { href: "/assets", label: "Assets", roles: ["owner", "admin", "member"], action: "manage assets" },
  // spec: Roles in the web console: only owners and admins manage keys.
  { href: "/api-keys", label: "API keys", roles: ["owner", "admin"], action: "manage API keys" },
  // spec: Roles in the web console: destination:manage (listing included) is not a member scope.
  { href: "/destinations", label: "Destinations", roles: ["owner", "admin"], action: "manage storage destinations" },
  // spec: webhook:manage belongs to owners and admins.
  { href: "/webhooks", label: "Webhooks", roles: ["owner", "admin"], action: "manage webhooks" },
  { href: "/people", label: "People", roles: ["owner", "admin", "member"], action: "see the people of this workspace" },
  // spec: usage:read: members, admins and owners (content editors lack it).
  { href: "/usage", label: "Usage", roles: ["owner", "admin", "member"], action: "see usage" },
  // spec: content editors lack audit:read.
  { href: "/audit", label: "Audit log", roles: ["owner", "admin", "member"], action: "read the audit log" },
  { href: "/settings", label: "Settings", roles: everyone, action: "open settings" },
  // The API reference is the public OpenAPI document as a page: everyone may read it.
  { href: "/reference", label: "API reference", roles: everyone, action: "read the API reference" },
  // decisions.md: Bootstrap and platform administration. Whatever the role in the current workspace.
  { href: "/platform", label: "Platform", roles: everyone, action: "administer the platform", platformAdmin: true },
];

/** The section a path belongs to ("/api-keys/key_1" -> API keys), or undefined. */
export function sectionOf(path: string): Section | undefined {
  const p = path.split(/[?#]/)[0] ?? "/";
  return sections.filter((s) => s.href !== "/").find((s) => p === s.href || p.startsWith(`${s.href}/`)) ?? (p === "/" ? sections[0] : undefined);
}

export const roleLabels: Record<Role, string> = { owner: "owner", admin: "admin", member: "member", content_editor: "content editor" };
