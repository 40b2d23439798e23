#!/usr/bin/env node
// The `folio` command. A published package runs its built CLI; in Folio's own checkout, where the
// package is not built, the TypeScript source runs through tsx (a development dependency there).
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/cli.js", import.meta.url);
if (existsSync(fileURLToPath(built))) await import(built.href);
else {
  const { register } = await import("tsx/esm/api");
  register();
  await import(new URL("../src/cli.ts", import.meta.url).href);
}
