/**
 * The sandbox's program where the render user cannot read the checkout (lib/sandbox/stage.ts): the
 * staged copy holds what the process needs, everyone may read it, and a process started from it as
 * the render user (when these tests run as root) loads isolated-vm and Handlebars and says it is ready.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findSystemUser } from "../private-files";
import { openToOthers, sandboxFiles } from "./stage";
import { setprivArgs } from "../processes/launch";
import { sandboxLimits } from ".";

const host = path.join(import.meta.dirname, "host.mjs");

describe("the sandbox's staged program", () => {
  it("is used only when the checkout is out of reach: a file under a 0700 folder is not open to others", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-stage-test-"));
    try {
      fs.writeFileSync(path.join(dir, "f"), "x", { mode: 0o644 });
      fs.chmodSync(dir, 0o700);
      expect(openToOthers(path.join(dir, "f"))).toBe(false);
      fs.chmodSync(dir, 0o755);
      expect(openToOthers(path.join(dir, "f"))).toBe(true);
      expect(sandboxFiles(host, undefined).staged).toBe(false); // this process's own user reads in place
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("holds node, the host, Handlebars and isolated-vm, readable by everyone, and starts as the render user", async () => {
    const files = sandboxFiles(host, undefined, true);
    expect(files.staged).toBe(true);
    expect(files.host.startsWith(fs.realpathSync(os.tmpdir()))).toBe(true);
    for (const p of [files.host, path.join(path.dirname(files.host), "harness.js"), files.handlebars]) expect(openToOthers(p), p).toBe(true);
    expect(openToOthers(files.node, true)).toBe(true);
    expect(fs.existsSync(path.join(path.dirname(files.host), "..", "..", "node_modules", "isolated-vm", "src"))).toBe(false);

    const root = process.getuid?.() === 0;
    const user = root ? findSystemUser(process.env.RENDER_USER ?? process.env.CHROMIUM_USER ?? "folio-render") : undefined;
    const drop = setprivArgs(user);
    const args = ["--no-node-snapshot", "--permission", "--allow-addons", ...files.readable.map((d) => `--allow-fs-read=${d}`), "--allow-fs-read=/etc/alpine-release"];
    const child = spawn("/usr/bin/setpriv", [...drop, "--", files.node, ...args, files.host, files.handlebars, files.jsonSchema, JSON.stringify(sandboxLimits)], {
      env: { PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv,
      cwd: "/",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "advanced",
    });
    let stderr = "";
    child.stderr!.on("data", (b: Buffer) => (stderr += b.toString()));
    try {
      const first = await new Promise<unknown>((resolve, reject) => {
        child.once("message", resolve);
        child.once("exit", (code) => reject(new Error(`exited ${code}: ${stderr}`)));
      });
      expect(first).toEqual({ ready: true });
      if (user) expect(fs.statSync(`/proc/${child.pid}`).uid).toBe(user.uid);
    } finally {
      child.kill("SIGKILL");
      fs.rmSync(path.resolve(files.host, "..", "..", ".."), { recursive: true, force: true });
    }
  }, 30_000);
});
