import http from "node:http";
import path from "node:path";
import next from "next";
import { config, ConfigError } from "../config";
import { closeDb } from "../db/client";
import { runMigrations } from "../db/migrate";
import { SOCKET_ADDRESS_HEADER } from "../http/client-address";
import { DOWNLOAD_PREFIX, serveDownload } from "../http/node-downloads";
import { answerUnknownMethodsWithEnvelope } from "../http/node-unknown-method";
import { POST as createRenderRoute } from "../../app/v1/renders/route";
import { runDirect } from "./direct";
import { boss, stopBoss } from "../jobs/boss";
import { flushLogs, log } from "../log";
import { listenForEndedRenders } from "../renders/events";
import { bootstrap } from "../workspaces/bootstrap";

/**
 * The web process: Next.js (API under /v1 and the console) behind a plain Node HTTP server.
 * why a custom server: route handlers cannot see the socket, and the rate limit needs the
 * client's address; this server passes it on in a header that clients cannot forge.
 */
async function main() {
  process.env.FOLIO_PROCESS ??= "web";
  const cfg = config();
  process.env.NEXTAUTH_URL = cfg.PUBLIC_URL;
  await runMigrations(cfg.DATABASE_URL!);
  await bootstrap();
  // Warm what the first render request would otherwise wait for.
  await Promise.all([boss(), listenForEndedRenders()]);

  const app = next({ dev: false, dir: path.resolve(__dirname, "../.."), hostname: cfg.HOST, port: cfg.PORT });
  await app.prepare();
  const handle = app.getRequestHandler();
  const origin = `http://${cfg.HOST === "0.0.0.0" ? "127.0.0.1" : cfg.HOST}:${cfg.PORT}`;
  const fail = (res: http.ServerResponse) => (err: unknown) => {
    log().error({ err }, "direct route failed");
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "INTERNAL", message: "Internal error", retryable: false } }));
  };
  const server = http.createServer((req, res) => {
    req.headers[SOCKET_ADDRESS_HEADER] = req.socket.remoteAddress ?? "";
    const pathname = (req.url ?? "/").split("?")[0]!;
    if (req.method === "GET" && pathname.startsWith(DOWNLOAD_PREFIX)) return void serveDownload(req, res, pathname);
    // The render hot path skips Next.js routing; same handler as app/v1/renders/route.ts.
    if (req.method === "POST" && pathname === "/v1/renders") return void runDirect(createRenderRoute, req, res, origin).catch(fail(res));
    if (pathname.startsWith("/v1/")) answerUnknownMethodsWithEnvelope(req, res, pathname);
    void handle(req, res);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(cfg.PORT, cfg.HOST, () => log().info({ port: cfg.PORT, publicUrl: cfg.PUBLIC_URL }, "web server listening"));

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
