import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makePrivateDir, protectDataDir, writePrivateFile, writePrivateFileAsync } from "./private-files";

// What Folio creates under DATA_DIR is its own user's only, whatever umask the process runs with
// (a service manager may start it with 0, which would make every default-mode folder 0777).

const mode = (p: string) => fs.statSync(p).mode & 0o777;

let root: string;
let umask: number;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "folio-private-"));
  umask = process.umask(0);
});
afterEach(() => {
  process.umask(umask);
  fs.rmSync(root, { recursive: true, force: true });
});

describe("private folders and files under umask 0", () => {
  it("makePrivateDir creates the folder and each missing parent 0700", () => {
    const dir = path.join(root, "data", "files", "ws_1", "ab");
    makePrivateDir(dir);
    for (const p of [path.join(root, "data"), path.join(root, "data", "files"), path.join(root, "data", "files", "ws_1"), dir]) expect(mode(p), p).toBe(0o700);
  });

  it("writePrivateFile and writePrivateFileAsync create files 0600, and 'wx' keeps an existing file", async () => {
    writePrivateFile(path.join(root, "a"), "secret");
    await writePrivateFileAsync(path.join(root, "b"), new Uint8Array([1, 2, 3]));
    expect(mode(path.join(root, "a"))).toBe(0o600);
    expect(mode(path.join(root, "b"))).toBe(0o600);
    expect(() => writePrivateFile(path.join(root, "a"), "other", "wx")).toThrow(/EEXIST/);
    expect(fs.readFileSync(path.join(root, "a"), "utf8")).toBe("secret");
  });

  it("protectDataDir makes DATA_DIR private (0700; 0710 with the postgres group when root)", () => {
    const dir = path.join(root, "data");
    fs.mkdirSync(dir, { mode: 0o777 });
    protectDataDir(dir);
    const st = fs.statSync(dir);
    // why either: as root with a postgres user, the embedded cluster's owner may pass through.
    expect([0o700, 0o710]).toContain(st.mode & 0o777);
    expect(st.mode & 0o067).toBe(0);
  });
});
