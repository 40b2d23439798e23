import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { blobKey } from "./documents/asset-refs";
import { uploadAsset } from "./testing/assets";
import { createTestWorkspace } from "./testing/factories";

// docs/architecture.md, Threat model: what Folio creates under DATA_DIR is 0700/0600, whichever
// process creates it (here the web server stores an upload in a DATA_DIR it was handed fresh).

const mode = (p: string) => fs.statSync(p).mode & 0o777;

/** Every folder and file below `dir`. */
function walk(dir: string, out: { dirs: string[]; files: string[] } = { dirs: [], files: [] }) {
  out.dirs.push(dir);
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.files.push(p);
  }
  return out;
}

describe("DATA_DIR's local file store", () => {
  it("keeps an uploaded asset's file 0600 in folders 0700, and DATA_DIR itself closed to others", async () => {
    const w = await createTestWorkspace();
    const bytes = randomBytes(64);
    const asset = await uploadAsset(w.key, { kind: "font", mediaType: "font/woff2", filename: "f.woff2", bytes });
    const dataDir = inject("dataDir");
    const file = path.join(dataDir, "files", blobKey(w.id, asset.sha256));
    expect(fs.readFileSync(file).equals(bytes)).toBe(true);

    const { dirs, files } = walk(path.join(dataDir, "files"));
    expect(files).toContain(file);
    for (const d of dirs) expect(`${d} ${mode(d).toString(8)}`).toBe(`${d} 700`);
    for (const f of files) expect(`${f} ${mode(f).toString(8)}`).toBe(`${f} 600`);
    expect(mode(path.join(dataDir, "secret-key"))).toBe(0o600);
    // 0700, or 0710 for the postgres group when the servers run as root (lib/private-files.ts).
    expect(mode(dataDir) & 0o067).toBe(0);
  });
});
