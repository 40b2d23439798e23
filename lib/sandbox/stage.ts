/**
 * Where the sandbox process's program is read from. That process runs as the render user, who must
 * read and run node, host.mjs, harness.js, violations.js, Handlebars and isolated-vm. Installed as
 * usual they are readable by everyone and used in place. A checkout the render user cannot reach
 * (under a home folder of mode 0700, as /root is, or files made under umask 077) is staged
 * instead: the few files the process needs are copied once per server process into a folder of the
 * temporary directory that only holds them (no secret, nothing of DATA_DIR), readable by everyone,
 * removed at exit.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openToOthers } from "../processes/launch";

export { openToOthers };

export type SandboxFiles = {
  /** The node binary to run. */
  node: string;
  /** host.mjs (harness.js and violations.js beside it). */
  host: string;
  /** Handlebars' browser build (its compiler, for the compiler contexts); its runtime build beside it is loaded into the isolates' snapshot. */
  handlebars: string;
  /** @cfworker/json-schema's CommonJS build (a folder), loaded into the snapshot too: data schemas are applied there. */
  jsonSchema: string;
  /** Folders the process may read under Node's permission model. */
  readable: string[];
  /** Whether the files were copied (the checkout was out of the render user's reach). */
  staged: boolean;
};

/** What host.mjs reads from its own folder into the isolates' snapshot. */
const SCRIPTS_BESIDE_HOST = ["harness.js", "violations.js"];

/** The isolated-vm files the process loads: its JavaScript, its package file and the prebuilt addon. */
const IVM_SKIP = /(^|\/)(src|vendor|native-example|scripts|include\.js|inspector-example\.js|Dockerfile\.[a-z]+|[^/]+\.tgz)$/;

/** Makes every folder under `root` passable and readable, every file readable (and runnable where it was). */
function openTree(root: string): void {
  for (const entry of fs.readdirSync(root, { withFileTypes: true, recursive: true })) {
    const p = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) fs.chmodSync(p, 0o755);
    else if (entry.isFile()) fs.chmodSync(p, fs.statSync(p).mode & 0o100 ? 0o755 : 0o644);
  }
  fs.chmodSync(root, 0o755);
}

let staged: SandboxFiles | undefined;

/**
 * The files for a process running as `user` (undefined: this process's own user, who reads them in
 * place). `force` stages even a readable checkout (tests).
 */
export function sandboxFiles(host: string, user: { uid: number } | undefined, force = false): SandboxFiles {
  const root = path.resolve(path.dirname(host), "..", "..");
  const modules = path.join(root, "node_modules");
  const inPlace: SandboxFiles = {
    node: process.execPath,
    host,
    handlebars: path.join(modules, "handlebars", "dist", "handlebars.min.js"),
    jsonSchema: path.join(modules, "@cfworker", "json-schema", "dist", "commonjs"),
    readable: [path.dirname(host), modules],
    staged: false,
  };
  if (!force && (!user || [host, ...SCRIPTS_BESIDE_HOST.map((f) => path.join(path.dirname(host), f)), inPlace.handlebars, path.join(path.dirname(inPlace.handlebars), "handlebars.runtime.min.js"), path.join(inPlace.jsonSchema, "validator.js"), path.join(modules, "isolated-vm", "isolated-vm.js")].every((p) => openToOthers(p)) && openToOthers(process.execPath, true))) {
    return inPlace;
  }
  if (staged && fs.existsSync(staged.host)) return staged;
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "folio-sandbox-"));
  process.once("exit", () => fs.rmSync(dir, { recursive: true, force: true }));
  const to = (...parts: string[]) => path.join(dir, ...parts);
  fs.mkdirSync(to("lib", "sandbox"), { recursive: true });
  for (const f of ["host.mjs", ...SCRIPTS_BESIDE_HOST]) fs.copyFileSync(path.join(path.dirname(host), f), to("lib", "sandbox", f));
  fs.mkdirSync(to("node_modules", "handlebars", "dist"), { recursive: true });
  // host.mjs finds Handlebars' runtime build beside the full one.
  for (const f of ["handlebars.min.js", "handlebars.runtime.min.js"]) fs.copyFileSync(path.join(path.dirname(inPlace.handlebars), f), to("node_modules", "handlebars", "dist", f));
  fs.cpSync(inPlace.jsonSchema, to("node_modules", "@cfworker", "json-schema", "dist", "commonjs"), { recursive: true, filter: (src) => !src.endsWith(".map") });
  const ivm = path.join(modules, "isolated-vm");
  fs.cpSync(ivm, to("node_modules", "isolated-vm"), { recursive: true, filter: (src) => !IVM_SKIP.test(path.relative(ivm, src)) });
  fs.cpSync(path.join(modules, "node-gyp-build"), to("node_modules", "node-gyp-build"), { recursive: true });
  fs.copyFileSync(process.execPath, to("node"));
  fs.chmodSync(to("node"), 0o755);
  openTree(dir);
  staged = {
    node: to("node"),
    host: to("lib", "sandbox", "host.mjs"),
    handlebars: to("node_modules", "handlebars", "dist", "handlebars.min.js"),
    jsonSchema: to("node_modules", "@cfworker", "json-schema", "dist", "commonjs"),
    readable: [to("lib", "sandbox"), to("node_modules")],
    staged: true,
  };
  return staged;
}
