import type { Role } from "../db/schema";

/** spec: Authentication > Scopes, spelled exactly as there. */
export const scopes = [
  "render:create",
  "render:read",
  "render:cancel",
  "template:read",
  "template:write",
  "template:publish",
  "template:content",
  "asset:manage",
  "audit:read",
  "usage:read",
  "webhook:manage",
  "certificate:manage",
  "destination:manage",
  "admin:manage",
] as const;

export type Scope = (typeof scopes)[number];

/** spec: Authentication > Roles in the web console. */
export const roleScopes: Record<Role, readonly Scope[]> = {
  owner: scopes,
  admin: scopes,
  member: scopes.filter((s) => !["admin:manage", "webhook:manage", "certificate:manage", "destination:manage"].includes(s)),
  content_editor: ["template:read", "template:content", "template:publish", "render:create", "render:read"],
};

/** spec: API key management rules: the self-hosted deploy key's fixed scopes. */
export const deployKeyScopes: readonly Scope[] = ["template:read", "template:write", "template:publish", "asset:manage"];

/** What each scope lets a caller do, for 403 messages ("This key lacks render:create, needed to create renders"). */
export const scopeActions: Record<Scope, string> = {
  "render:create": "create renders",
  "render:read": "read renders",
  "render:cancel": "cancel renders",
  "template:read": "read templates",
  "template:write": "change templates",
  "template:publish": "publish templates",
  "template:content": "save template content",
  "asset:manage": "manage assets",
  "audit:read": "read the audit history",
  "usage:read": "read usage",
  "webhook:manage": "manage webhooks",
  "certificate:manage": "manage signing certificates",
  "destination:manage": "manage storage destinations",
  "admin:manage": "list API keys",
};
