import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { pdfText } from "@/lib/testing/pdf";
import { DOWNLOAD_URL_PLACEHOLDER, helloDownloadCommand, helloRenderCommand, KEY_VARIABLE } from "./hello-curl";

const run = promisify(execFile);

/** Runs a command as a person pastes it into bash, in a folder of its own. */
async function shell(command: string, cwd: string, env: Record<string, string> = {}) {
  const { stdout } = await run("bash", ["-c", command], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } as unknown as NodeJS.ProcessEnv, encoding: "utf8", timeout: 30_000 });
  return stdout;
}

describe("the getting-started curl commands (console home)", () => {
  it.each([
    ["reading the key from $FOLIO_API_KEY", false],
    ["with the new key's secret written in", true],
  ])("render Hello and download its PDF, run as written, %s", async (_name, written) => {
    const w = await createTestWorkspace({ scopes: ["render:create", "render:read"] });
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "folio-hello-"));
    try {
      const render = helloRenderCommand(inject("baseUrl"), written ? w.key : undefined);
      expect(render).toContain(written ? w.key : `$${KEY_VARIABLE}`);
      const printed = JSON.parse(await shell(render, cwd, written ? {} : { [KEY_VARIABLE]: w.key })) as {
        state: string;
        result?: { downloadUrl: string };
      };
      expect(printed.state).toBe("succeeded");

      const download = helloDownloadCommand();
      expect(download).toContain(DOWNLOAD_URL_PLACEHOLDER);
      await shell(helloDownloadCommand(printed.result!.downloadUrl), cwd);
      const pdf = fs.readFileSync(path.join(cwd, "hello.pdf"));
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      expect(pdfText(pdf)).toContain("Hello");
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
