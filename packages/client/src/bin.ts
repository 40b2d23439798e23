#!/usr/bin/env node
// The `folio` command's entry, and nothing else: it runs main() whatever path started it (this
// file, node_modules/.bin/folio's symlink, npm's shim on Windows), so no check of process.argv[1]
// can miss. Tests import main() from cli.ts instead.
import { main } from "./cli.js";

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
