import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { systemCtx } from "../auth/context";
import { scopes } from "../auth/scopes";
import { config, ConfigError } from "../config";
import { closeDb } from "../db/client";
import { authenticateKey, createKeyAsSystem } from "../keys";
import { bootstrap } from "../workspaces/bootstrap";
import { builtDir, programs, type ProgramName } from "../processes/programs";
import { openDatabase } from "./database";

/**
 * `npm start`: the database (embedded unless DATABASE_URL is set), migrations, the first-start
 * bootstrap, then the web server and the worker together, each started again if it dies. Ctrl-C
 * stops all of them.
 */
/**
 * How node runs a program of Folio's: compiled when `start` itself runs compiled (production: `npm
 * start`, the quick start, the container), else its source through tsx (a development checkout).
 * why not --enable-source-maps: with it Node maps every frame of every stack trace it formats, and
 * Playwright takes one per browser call (in a CPU profile of the worker during the Handlebars bench,
 * 0.55 s of its 11 s busy went to mapping frames), and it parses each loaded chunk's map (1.1 s of a
 * web server's, most of it at start). The bundles are not minified, so a trace still names
 * functions; NODE_OPTIONS=--enable-source-maps to debug.
 */
function programArgs(program: ProgramName): string[] {
  const built = builtDir();
  return built ? [path.join(built, `${program}.js`)] : ["--import", "tsx", programs[program]];
}

async function main() {
  process.env.FOLIO_PROCESS = "cli";
  const cfg = config();
  const root = path.resolve(__dirname, "../..");
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID"))) {
    throw new Error("No production build found; run `npm run build` first (`npm run quickstart` does it for you).");
  }

  const { url, embedded } = await openDatabase();
  const boot = await bootstrap();
  const key = await quickStartKey(boot.workspace.id, path.join(cfg.DATA_DIR, "quickstart-key"));
  await closeDb();

  const env = { ...process.env, DATABASE_URL: url };
  /** The running web server and worker, by name (a restarted one replaces its predecessor). */
  const children = new Map<string, ChildProcess>();
  // Supervision: a web server or worker that dies is started again in place, after a backoff that
  // doubles from 0.5 s to 30 s (and starts over once a process has run a minute), while the other
  // one and the database go on: a crashed worker no longer takes the web server down with it.
  const startChild = (name: string, program: ProgramName, role: string) => {
    let failures = 0;
    const launch = () => {
      const startedAt = Date.now();
      const child = spawn(process.execPath, programArgs(program), {
        cwd: root,
        env: { ...env, FOLIO_PROCESS: role },
        stdio: ["ignore", "inherit", "inherit"],
      });
      children.set(name, child);
      child.on("exit", (code, signal) => {
        if (stopping) return;
        failures = Date.now() - startedAt > 60_000 ? 1 : failures + 1;
        const delay = Math.min(30_000, 500 * 2 ** (failures - 1));
        console.error(`${name} exited (${signal ?? code}); starting it again in ${delay / 1000} s`);
        // why not unref'd: while both are down, this timer is what keeps the start process up.
        setTimeout(() => {
          if (!stopping) launch();
        }, delay);
      });
    };
    launch();
  };

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await Promise.all(
      [...children.values()].map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once("exit", () => resolve());
            c.kill("SIGTERM");
            setTimeout(() => c.kill("SIGKILL"), cfg.RENDER_TIMEOUT_MS + 15_000).unref();
          }),
      ),
    );
    if (embedded?.startedHere) embedded.stop();
    process.exit(code);
  };
  process.on("SIGINT", () => void stop(0));
  process.on("SIGTERM", () => void stop(0));

  startChild("web server", "web", "web");
  startChild("worker", "worker", "worker");
  try {
    await waitForReady(`http://127.0.0.1:${cfg.PORT}/readyz`);
  } catch (err) {
    console.error(`Folio failed to start: ${(err as Error).message}`);
    await stop(1);
  }

  const lines = [
    "",
    "Folio is running.",
    `  Console:  ${cfg.PUBLIC_URL}/   (sign in as ${boot.ownerEmail ?? cfg.ADMIN_EMAIL})`,
  ];
  if (boot.generatedPassword) lines.push(`  Password: ${boot.generatedPassword}   (shown once; set ADMIN_PASSWORD before the first start to choose it)`);
  lines.push(
    `  API key:  ${key}   (all scopes; kept in ${path.join(cfg.DATA_DIR, "quickstart-key")})`,
    "",
    "Try it:",
    `  curl -s ${cfg.PUBLIC_URL}/v1/instance -H 'x-api-key: ${key}'`,
    "",
    "Press Ctrl-C to stop. Data is kept in " + cfg.DATA_DIR + " and reused on the next start.",
    "",
  );
  console.log(lines.join("\n"));
}

/** The quick-start key: the one saved on an earlier start while it still works, else a new one. */
async function quickStartKey(workspaceId: string, file: string): Promise<string> {
  if (fs.existsSync(file)) {
    const saved = fs.readFileSync(file, "utf8").trim();
    try {
      if ((await authenticateKey(saved)).workspaceId === workspaceId) return saved;
    } catch {
      // revoked, expired or from another database: make a new one below
    }
  }
  const k = await createKeyAsSystem(systemCtx(workspaceId, "quickstart"), "Quick start", scopes, null);
  fs.writeFileSync(file, k.secret + "\n", { mode: 0o600 });
  return k.secret;
}

async function waitForReady(url: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`The web server did not become ready at ${url} within 2 minutes`);
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : `Folio failed to start: ${(err as Error).message}`);
  process.exit(1);
});
