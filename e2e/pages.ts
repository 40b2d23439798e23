import type { Role } from "../lib/db/schema";

/**
 * Every console page, for the per-role journey (roles.spec.ts): who may open it and the heading it
 * shows. A page of the console is added here when it is built; roles.spec.ts then visits it as
 * each role, checks the heading or the refusal, runs axe and takes the screenshots.
 */
export type ConsolePage = {
  path: string;
  /** The screenshot's name and the test's title. */
  name: string;
  /** The page's <h1> for a role that may open it. */
  heading: string | RegExp;
  /** Roles that may open it; every other role sees the refusal (HTTP 403). */
  roles: readonly Role[];
  /** Pages outside the console (sign-in): opened signed out, not per role. */
  public?: boolean;
  /**
   * The page's main change, sent as the signed-in person (their session cookie, the console's
   * Origin): for a role the page refuses, the server must answer 403 too, not only the UI.
   */
  refusedAction?: { method: "POST" | "PATCH" | "DELETE"; path: string; body?: unknown };
};

export const everyRole: readonly Role[] = ["owner", "admin", "member", "content_editor"];

export const pages: ConsolePage[] = [
  { path: "/sign-in", name: "sign-in", heading: "Sign in to Folio", roles: everyRole, public: true },
  { path: "/", name: "home", heading: /^Welcome to /, roles: everyRole },
  { path: "/people", name: "people", heading: "People", roles: ["owner", "admin", "member"] },
  { path: "/settings", name: "settings", heading: "Settings", roles: everyRole },
  // why not here: the API reference is the longest page (every operation and schema), and axe over it
  // for each role would cost the journeys half a minute; e2e/reference.spec.ts opens it as the role
  // with the fewest rights, with axe and both widths, and every role has the link (lib/console/sections.ts).
  { path: "/forgot-password", name: "forgot-password", heading: "Reset your password", roles: everyRole, public: true },
  { path: "/invitations/NotARealInvitationTokenNotARealInvitation1", name: "invitation-invalid", heading: "This invitation link is not valid", roles: everyRole, public: true },
  { path: "/reset-password/NotARealResetTokenNotARealResetTokenNotARe", name: "reset-password-invalid", heading: "This link is not valid", roles: everyRole, public: true },
  {
    path: "/api-keys",
    name: "api-keys",
    heading: "API keys",
    roles: ["owner", "admin"],
    refusedAction: { method: "POST", path: "/v1/api-keys", body: { name: "refused", scopes: ["render:read"] } },
  },
  {
    path: "/destinations",
    name: "destinations",
    heading: "Storage destinations",
    roles: ["owner", "admin"],
    refusedAction: { method: "POST", path: "/v1/storage-destinations", body: { name: "refused", bucket: "b", accessKeyId: "k", secretAccessKey: "s" } },
  },
  {
    path: "/webhooks",
    name: "webhooks",
    heading: "Webhooks",
    roles: ["owner", "admin"],
    refusedAction: { method: "POST", path: "/v1/webhook-endpoints", body: { url: "https://example.com/hooks", eventTypes: ["render.failed"] } },
  },
  { path: "/renders", name: "renders", heading: "Renders", roles: everyRole },
  // A batch's page (/renders/batch/{id}) needs a batch; e2e/batches.spec.ts opens it (every role reads renders).
  {
    path: "/assets",
    name: "assets",
    heading: "Assets",
    roles: ["owner", "admin", "member"],
    refusedAction: { method: "POST", path: "/v1/assets", body: { kind: "font", filename: "refused.woff2", mediaType: "font/woff2", size: 10, sha256: "0".repeat(64) } },
  },
  { path: "/usage", name: "usage", heading: "Usage", roles: ["owner", "admin", "member"] },
  { path: "/audit", name: "audit", heading: "Audit log", roles: ["owner", "admin", "member"] },
  // /platform is not here: who may open it is the user's platform-admin flag, not a workspace role
  // (every role of this registry is refused it). e2e/platform.spec.ts opens it as a platform
  // administrator and checks the refusal (page and server action) for an owner.

  // The editor (/templates/{id}) needs a template; e2e/templates.spec.ts opens it per role.
  { path: "/templates", name: "templates", heading: "Templates", roles: everyRole },
  // Every role reads files; e2e/files.spec.ts checks that a content editor cannot change them.
  { path: "/files", name: "files", heading: "Files", roles: everyRole },
];
