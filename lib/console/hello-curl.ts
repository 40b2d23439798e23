/**
 * The getting-started commands the console shows (home page, and the new key's dialog): render
 * "Hello" with a key, then download the file. Pure, so the page and the test that runs the very
 * same text through a shell (hello-curl.test.ts) share it.
 */

/** The shell variable the commands read the key from when the secret is not at hand. */
export const KEY_VARIABLE = "FOLIO_API_KEY";

const HELLO_BODY = JSON.stringify({ document: { html: "<h1>Hello</h1>" }, waitMs: 10_000 });

/**
 * `curl` that renders "Hello" to a PDF and prints the render, waiting up to 10 s for it to end.
 * `secret` is written into the command when given (the dialog that shows a new key's secret once),
 * else the command reads `$FOLIO_API_KEY`.
 */
export function helloRenderCommand(publicUrl: string, secret?: string): string {
  const base = publicUrl.replace(/\/+$/, "");
  const key = secret ?? `$${KEY_VARIABLE}`;
  return [
    `curl -X POST ${base}/v1/renders \\`,
    `  -H "x-api-key: ${key}" \\`,
    `  -H "content-type: application/json" \\`,
    `  -d '${HELLO_BODY}'`,
  ].join("\n");
}

/** The placeholder the download command shows for the render's `result.downloadUrl`. */
export const DOWNLOAD_URL_PLACEHOLDER = "DOWNLOAD_URL";

/** `curl` that saves the rendered PDF from the render's `result.downloadUrl` (valid five minutes, no key needed). */
export function helloDownloadCommand(downloadUrl: string = DOWNLOAD_URL_PLACEHOLDER): string {
  return `curl -o hello.pdf "${downloadUrl}"`;
}
