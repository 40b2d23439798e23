// Rewrites app/v1/openapi.json/routes.ts, the registry of route modules the OpenAPI document is generated from.
import fs from "node:fs";
import path from "node:path";
import { REGISTRY_FILE, registryText, routeFiles } from "../lib/http/openapi/registry";

const root = path.resolve(import.meta.dirname, "..");
fs.writeFileSync(path.join(root, REGISTRY_FILE), registryText(routeFiles(root)));
console.log(`wrote ${REGISTRY_FILE}`);
