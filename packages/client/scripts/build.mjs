// Builds what the package ships, from this folder alone (its own devDependencies): dist/ (ESM, with
// the CLI) and dist/cjs/ (CommonJS, for require(): Node 20 before 20.19 cannot require an ES module).
// `npm pack` and `npm publish` run it (prepack).
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL("..", import.meta.url));
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
rmSync(`${here}/dist`, { recursive: true, force: true });
for (const config of ["tsconfig.build.json", "tsconfig.cjs.json"]) execFileSync(process.execPath, [tsc, "-p", config], { cwd: here, stdio: "inherit" });
// why: package.json says "type": "module", so without this the .js files of dist/cjs would load as ESM.
writeFileSync(`${here}/dist/cjs/package.json`, `${JSON.stringify({ type: "commonjs" })}\n`);
