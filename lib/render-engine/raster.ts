import { config } from "../config";
import { spawnContained, type ContainedLimits } from "./contained";
import { ppmToPng } from "./png";

// why not in pdf.ts: the helper processes (lib/offload) load pdf.ts, and nothing of the
// launcher (which finds its files through __dirname, absent there) belongs in them.

/**
 * Rasterises one page of a PDF (from 1) with poppler's pdftoppm to exactly width x height pixels.
 * why exact: Chromium's page boxes are a fraction of a point larger than asked, which a DPI would
 * turn into an extra pixel or more, past the checked limits.
 */
export function rasterize(pdf: Uint8Array, format: "png" | "jpeg", size: { width: number; height: number }, signal: AbortSignal, page = 1): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // PDF on stdin ("-"), and no output root, so the image comes back on stdout.
    // PNG: pdftoppm writes a PPM (its default), which ppmToPng encodes (see there why).
    const args = ["-scale-to-x", String(size.width), "-scale-to-y", String(size.height), "-singlefile", "-f", String(page), "-l", String(page)];
    if (format === "jpeg") args.unshift("-jpeg", "-jpegopt", "quality=90");
    args.push("-");
    // why contained: poppler parses the caller's embedded images and fonts as they came
    // (docs/architecture.md, Threat model).
    const { child, done } = spawnContained("pdftoppm", args, rasterLimits(), signal);
    const out: Buffer[] = [];
    let err = "";
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => (err += b.toString()));
    child.stdin.on("error", () => {}); // pdftoppm may exit before reading everything
    child.stdin.end(pdf);
    void done.then(({ code, signal: sig, timedOut }) => {
      if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error(`rasterising was aborted: ${String(signal.reason)}`));
      const image = Buffer.concat(out);
      if (code === 0 && image.length > 0) return resolve(format === "png" ? ppmToPng(image) : image);
      const how = timedOut ? "ran out of time" : sig ? `was ended by ${sig}` : `exited ${code}`;
      reject(new Error(`pdftoppm ${how} with ${image.length} bytes: ${err.slice(0, 500)}`));
    });
  });
}

/**
 * pdftoppm's limits. Memory: a page of at most 4096 x 8192 pixels (spec: Limits) is 128 MiB as
 * poppler's bitmap, beside the PDF (up to 50 MiB) and its decoded images; 1 GiB leaves room for
 * every document the render limits let through. Time: the render's own, which also aborts it.
 */
export function rasterLimits(): ContainedLimits {
  const ms = config().RENDER_TIMEOUT_MS;
  return { timeoutMs: ms, cpuSeconds: Math.ceil(ms / 1000), memoryBytes: 1024 * 1024 * 1024, fileBytes: 16 * 1024 * 1024 };
}
