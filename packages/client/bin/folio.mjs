#!/usr/bin/env node
// The `folio` command: the built CLI (dist/, which `npm pack` and `npm publish` build first), with
// no TypeScript loader. In Folio's own checkout, `npm run cli` runs the sources instead.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/bin.js", import.meta.url);
if (existsSync(fileURLToPath(built))) await import(built.href);
else {
  console.error(`folio: ${fileURLToPath(built)} is missing: this copy of @folio/client is not built. Run \`npm run build\` in its folder, or \`npm run cli -- …\` in Folio's checkout.`);
  process.exitCode = 1;
}
