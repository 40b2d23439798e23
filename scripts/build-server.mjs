// Compiles Folio's own programs (lib/processes/programs.ts: start, web, worker, admin, the helpers' jobs)
// into one CommonJS file each under dist/server, for production to start without a TypeScript loader
// (issue 33: tsx cost about half a second per helper start, and was a runtime dependency).
// Packages stay in node_modules (external); only the project's own modules are bundled.
// Run by `npm run build`, scripts/ensure-build.sh and the test suite's set-up:
//   node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON scripts/build-server.mjs
// It does nothing when the build is newer than every file it was made from.
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { BUILT_DIR, programs } from "../lib/processes/programs.ts";

const root = path.resolve(import.meta.dirname, "..");
const outdir = path.join(root, BUILT_DIR);
/** What the build was made from: its input files and the /v1 route files, for the next run to compare. */
const INPUTS_FILE = "inputs.json";

const routes = routeFiles();
if (!upToDate()) {
  // why built aside and swapped in: a server of another test run may be starting from dist/server
  // at this moment; it must find a whole build, old or new, never half of one.
  const next = `${outdir}.${process.pid}`;
  fs.rmSync(next, { recursive: true, force: true });
  // why the start: a file saved while the build reads it must make the next run build again.
  const startedAt = new Date();
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: programs,
    outdir: next,
    bundle: true,
    packages: "external",
    platform: "node",
    target: "node24",
    format: "cjs",
    sourcemap: "linked",
    metafile: true,
    tsconfig: path.join(root, "tsconfig.json"),
    logLevel: "warning",
    banner: {
      js: [
        // why: esbuild's own "use strict" comes after the banner, where it would not count; the sources are modules, strict.
        '"use strict";',
        // why: a compiled program tells what it starts (web and worker from `start`, the helpers) to run
        // compiled too (lib/processes/programs.ts, builtDir).
        "process.env.FOLIO_BUILT_DIR ||= __dirname;",
        // why Node's compile cache (V8's code for each module, kept on disk beside the build): a start of the
        // web server spent a third of its CPU compiling Next.js and the app's chunks, and the admin CLI,
        // the quick start and the test suite's servers start often. It is validated by each source's hash
        // and goes with the build (a new build is a new folder). Not for the helpers: they parse callers'
        // bytes as the render user, and no process of theirs may write code that another process runs.
        `if (!__filename.endsWith("helper-jobs.js")) require("node:module").enableCompileCache?.(require("node:path").join(__dirname, ".compile-cache"));`,
      ].join("\n"),
    },
  });
  fs.writeFileSync(path.join(next, "route-exports.json"), `${JSON.stringify(await routeExports(), null, 1)}\n`);
  const inputs = [...new Set([...Object.keys(metafile.inputs), ...routes.map((f) => path.join("app", f)), "lib/processes/programs.ts", "scripts/build-server.mjs"])];
  fs.writeFileSync(path.join(next, INPUTS_FILE), JSON.stringify({ programs, routes, inputs }));
  fs.utimesSync(path.join(next, INPUTS_FILE), startedAt, startedAt);
  const old = `${outdir}.old.${process.pid}`;
  if (fs.existsSync(outdir)) fs.renameSync(outdir, old);
  try {
    fs.renameSync(next, outdir);
  } catch (e) {
    // Another build swapped its own in between: the same sources, so that one serves.
    if (e.code !== "ENOTEMPTY" && e.code !== "EEXIST") throw e;
  }
  fs.rmSync(old, { recursive: true, force: true });
  fs.rmSync(next, { recursive: true, force: true });
}

/** The /v1 route files, as paths under app/ (v1/…/route.ts). */
function routeFiles() {
  const v1 = path.join(root, "app", "v1");
  return fs.readdirSync(v1, { recursive: true, encoding: "utf8" }).filter((f) => path.basename(f) === "route.ts").map((f) => path.join("v1", f)).sort();
}

/** Whether dist/server was made from the same programs and routes, after their files last changed. */
function upToDate() {
  try {
    const made = JSON.parse(fs.readFileSync(path.join(outdir, INPUTS_FILE), "utf8"));
    const builtAt = fs.statSync(path.join(outdir, INPUTS_FILE)).mtimeMs;
    return (
      JSON.stringify(made.programs) === JSON.stringify(programs) &&
      JSON.stringify(made.routes) === JSON.stringify(routes) &&
      made.inputs.every((f) => fs.statSync(path.join(root, f)).mtimeMs < builtAt)
    );
  } catch {
    return false; // no build, an unreadable one, or an input gone
  }
}

/**
 * What each /v1 route file exports (lib/server/endpoints.ts): the compiled web server answers a
 * method no route exports itself, and cannot import the TypeScript routes to find out. esbuild's
 * metafile names each file's exports without running it.
 */
async function routeExports() {
  const table = {};
  for (const file of routes) {
    const { metafile } = await build({ absWorkingDir: root, entryPoints: [path.join("app", file)], bundle: false, format: "esm", write: false, metafile: true, outdir, logLevel: "warning" });
    table[file] = Object.values(metafile.outputs).flatMap((o) => o.exports);
  }
  return table;
}
