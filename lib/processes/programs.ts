/**
 * The programs Folio runs, by name, with their source. `npm run build` compiles each into one file
 * of BUILT_DIR (scripts/build-server.mjs); production starts those, and development and the tests'
 * own in-process pools run the sources through tsx. why a table of its own, without imports: the
 * build script reads it too, as plain Node does (type stripping).
 */
export const programs = {
  start: "lib/cli/start.ts",
  web: "lib/server/web.ts",
  worker: "worker/index.ts",
  admin: "lib/cli/admin.ts",
  "helper-jobs": "lib/helper-process/jobs.ts",
} as const;

export type ProgramName = keyof typeof programs;

/** Where the compiled programs are, under the project root. */
export const BUILT_DIR = "dist/server";

/**
 * The folder of the compiled programs when this process is one of them, else undefined. Every
 * compiled program sets FOLIO_BUILT_DIR first thing (the build's banner), so the programs it
 * starts, and the pools in the Next.js bundle of its web server, run compiled too.
 */
export function builtDir(): string | undefined {
  return process.env.FOLIO_BUILT_DIR || undefined;
}
