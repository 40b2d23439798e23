/**
 * The console's server side (server components and server actions only; it reads the database).
 * See docs/architecture.md, "The console".
 */
export { consoleSession, currentPath, requireConsole, requireConsoleOrUnavailable, can, requireScopeOrRefuse, requireSectionOrRefuse, requirePlatformAdminOrRefuse, isPlatformAdmin, platformRefusal, refusalMessage, refusalNote, type ConsoleSession } from "./session";
export { consoleAction, consoleFormAction, runConsoleAction, toActionError, formDataToObject, type ActionResult, type ActionError } from "./action";
export { safeNextPath, signInHref } from "./next-path";
export { sections, sectionOf, roleLabels, type Section } from "./sections";
