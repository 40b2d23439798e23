import http from "node:http";
import { flushCompileCache } from "node:module";
import path from "node:path";
import next from "next";
import { config, ConfigError } from "../config";
import { closeDb } from "../db/client";
import { runMigrations } from "../db/migrate";
import { SOCKET_ADDRESS_HEADER } from "../http/client-address";
import { REQUEST_PATH_HEADER } from "../console/next-path";
import { keepLength, lingerAfterAnswer, sendFailure, sendWhole } from "../http/node";
import { DOWNLOAD_PREFIX, serveDownload } from "../http/node-downloads";
import { serveUpload, UPLOAD_PREFIX } from "../http/node-uploads";
import { beginRequest } from "../http/steps";
import { createRenderRoute } from "../http/create-render";
import { decodes, hasNul, nulInUrl, refusalAnswer, undecodablePath, unknownEndpoint } from "../http/refusals";
import { runDirect } from "./direct";
import { loadEndpoints } from "./endpoints";
import { boss, stopBoss } from "../jobs/boss";
import { flushLogs, log, sanitizeConsole } from "../log";
import { listenForEndedRenders } from "../renders/events";
import { warmSandbox } from "../sandbox";
import { bootstrap } from "../workspaces/bootstrap";

/**
 * Every answer outside /v1 (console pages, their errors, sign-in, next-auth): no other site may
 * frame them (clickjacking). why not /v1: a download link's PDF may be shown in a caller's frame.
 */
const CONSOLE_HEADERS = { "content-security-policy": "frame-ancestors 'none'", "x-frame-options": "DENY" } as const;

/**
 * The web process: Next.js (API under /v1 and the console) behind a plain Node HTTP server.
 * why a custom server: route handlers cannot see the socket, and the rate limit needs the
 * client's address; this server passes it on in a header that clients cannot forge.
 */
async function main() {
  process.env.FOLIO_PROCESS ??= "web";
  sanitizeConsole();
  const cfg = config();
  process.env.NEXTAUTH_URL = cfg.PUBLIC_URL;
  await runMigrations(cfg.DATABASE_URL!);
  await bootstrap();
  // Warm what the first render request would otherwise wait for.
  await Promise.all([boss(), listenForEndedRenders()]);
  // why not awaited: the template sandbox's process (lib/sandbox) makes its isolate snapshot in
  // about half a second; requests that need it before then wait for it, others do not.
  // FOLIO_WARM_SANDBOX=0 (the suite's own servers, lib/testing): its processes start at the first
  // sandbox job instead; most of those servers never run one, and three processes cost about 1 s of CPU.
  if (cfg.FOLIO_WARM_SANDBOX) void warmSandbox().catch((err) => log().error({ err }, "the template sandbox did not start"));

  const root = path.resolve(__dirname, "../..");
  const app = next({ dev: false, dir: root, hostname: cfg.HOST, port: cfg.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  const endpoints = await loadEndpoints(path.join(root, "app"));
  const origin = `http://${cfg.HOST === "0.0.0.0" ? "127.0.0.1" : cfg.HOST}:${cfg.PORT}`;
  /** What Next.js would answer badly: a method a /v1 path lacks (a bare 405), a path that does not decode (a 500). */
  const refuseBeforeNext = (method: string, pathname: string) => {
    if (pathname.includes("%") && !decodes(pathname)) return undecodablePath(pathname);
    if (pathname.startsWith("/v1/") && endpoints.lacks(method, pathname)) return unknownEndpoint(method, pathname);
    return undefined;
  };
  const server = http.createServer((req, res) => {
    // An answer sent before its request's body was read: the rest is read and dropped, within bounds,
    // so that a client still sending gets that answer rather than a reset.
    lingerAfterAnswer(req, res);
    req.headers[SOCKET_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
    // The console's sign-in redirect comes back to this path (lib/console/session.ts).
    req.headers[REQUEST_PATH_HEADER] = req.url ?? "/";
    const method = req.method ?? "GET";
    const pathname = (req.url ?? "/").split("?")[0]!;
    // spec: Errors: a NUL anywhere in the path or query is a bad request, whichever handler the path reaches.
    if (hasNul(req.url ?? "")) return void sendWhole(res, refusalAnswer(nulInUrl(), method, pathname.replaceAll("\0", "%00"), req.headers["x-request-id"]));
    if (!pathname.startsWith("/v1/")) for (const [name, value] of Object.entries(CONSOLE_HEADERS)) res.setHeader(name, value);
    if (method === "GET" && pathname.startsWith(DOWNLOAD_PREFIX)) return void serveDownload(req, res, pathname);
    if ((method === "PUT" || method === "OPTIONS") && pathname.startsWith(UPLOAD_PREFIX)) return void serveUpload(req, res, pathname);
    // The render hot path skips Next.js routing; same handler as app/v1/renders/route.ts (lib/http/create-render.ts).
    if (method === "POST" && pathname === "/v1/renders") {
      return void runDirect(createRenderRoute, req, res, origin).catch((err) => sendFailure(beginRequest(req.headers["x-request-id"]), res, err));
    }
    const refusal = refuseBeforeNext(method, pathname);
    if (refusal) return void sendWhole(res, refusalAnswer(refusal, method, pathname, req.headers["x-request-id"]));
    keepLength(res);
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(cfg.PORT, cfg.HOST, () => {
    log().info({ port: cfg.PORT, publicUrl: cfg.PUBLIC_URL }, "web server listening");
    // why now: the compile cache (scripts/build-server.mjs) is written at exit otherwise, which a killed server never reaches.
    flushCompileCache();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log().info({ signal }, "web server stopping");
    server.close(async () => {
      await stopBoss({ graceful: false, timeout: 1000 }).catch(() => {});
      await closeDb();
      flushLogs();
      process.exit(0);
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((err) => {
  if (err instanceof ConfigError) console.error(err.message);
  else console.error("web server failed to start:", err);
  process.exit(1);
});
