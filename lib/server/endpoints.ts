import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { builtDir } from "../processes/programs";

/** The methods Next.js hands to a route handler; a route that does not export one answers a bare 405. */
const ROUTE_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;

/** A route file's path as segments (null for a dynamic one such as [id]) and the methods it answers. */
type Route = { segments: (string | null)[]; methods: ReadonlySet<string> };

export type Endpoints = {
  /** True when the method and path name no endpoint but Next.js would answer them with a bare 405. */
  lacks: (method: string, pathname: string) => boolean;
};

/** What each /v1 route file (by its path under app/) exports; the compiled web server reads it from the build. */
export type RouteExports = Record<string, string[]>;

/** The file scripts/build-server.mjs writes beside the compiled programs. */
export const ROUTE_EXPORTS_FILE = "route-exports.json";

/**
 * The table of /v1 endpoints, read from the route files themselves so it cannot fall behind them:
 * by importing them when the server runs from source, from the table the build wrote when it runs
 * compiled (which cannot import TypeScript). why: Next.js answers a method a route does not export
 * with a bare 405; in the API an endpoint is a method and a path, so lib/server/web.ts answers those
 * requests itself with the 404 envelope of an unknown endpoint, before Next.js sees them.
 */
export async function loadEndpoints(appDir: string): Promise<Endpoints> {
  const built = builtDir();
  const exportsOf = built ? (JSON.parse(fs.readFileSync(path.join(built, ROUTE_EXPORTS_FILE), "utf8")) as RouteExports) : await importRoutes(appDir);
  const known = Object.entries(exportsOf)
    .map(([file, names]) => routeOf(file, names))
    .filter((r): r is Route => r !== undefined);
  return {
    lacks: (method, pathname) => {
      const route = routeFor(known, pathname);
      // Paths no route file names reach the catch-all route, which answers the methods Next routes.
      return route ? !route.methods.has(method) : !(ROUTE_METHODS as readonly string[]).includes(method);
    },
  };
}

/** The /v1 route files under appDir, as paths under it (v1/…/route.ts). */
export function routeFiles(appDir: string): string[] {
  return (fs.readdirSync(path.join(appDir, "v1"), { recursive: true }) as string[])
    .filter((f) => path.basename(f) === "route.ts")
    .map((f) => path.join("v1", f));
}

async function importRoutes(appDir: string): Promise<RouteExports> {
  const files = routeFiles(appDir);
  const modules = await Promise.all(files.map((file) => import(pathToFileURL(path.join(appDir, file)).href) as Promise<Record<string, unknown>>));
  return Object.fromEntries(files.map((file, i) => [file, Object.keys(modules[i]!).filter((name) => typeof modules[i]![name] === "function")]));
}

function routeOf(file: string, exported: string[]): Route | undefined {
  const names = path.dirname(file).split(path.sep);
  if (names.length === 2 && names[1] === "[[...path]]") return undefined; // the catch-all of unknown paths
  const segments = names.map((name) => {
    if (/^\[\w+\]$/.test(name)) return null;
    // why throw: a route shape this table cannot match (a catch-all, a group) would make it disagree with Next.
    if (!/^[\w.-]+$/.test(name)) throw new Error(`lib/server/endpoints.ts cannot match the route segment ${name} of app/${file}`);
    return name;
  });
  const methods = new Set<string>(ROUTE_METHODS.filter((m) => exported.includes(m)));
  if (methods.has("GET")) methods.add("HEAD"); // Next answers HEAD with GET's handler, and OPTIONS itself
  methods.add("OPTIONS");
  return { segments, methods };
}

/** The route Next.js would pick for a path: where routes differ, a named segment wins over a dynamic one. */
function routeFor(routes: Route[], pathname: string): Route | undefined {
  const parts = pathname.split("/").slice(1);
  if (parts.some((p) => p === "")) return undefined; // Next redirects away empty segments first
  let best: Route | undefined;
  for (const r of routes) {
    if (r.segments.length !== parts.length || !r.segments.every((s, i) => s === null || s === parts[i])) continue;
    if (!best || namedFirst(r, best)) best = r;
  }
  return best;
}

function namedFirst(a: Route, b: Route): boolean {
  const i = a.segments.findIndex((s, j) => (s === null) !== (b.segments[j] === null));
  return i >= 0 && a.segments[i] !== null;
}
