// AssetUploader: drop files on the zone or choose them; each is hashed in the browser (SHA-256),
// registered (POST /v1/assets through a server action) and sent to its upload link with
// XMLHttpRequest, whose upload events drive the progress bar. The list refreshes when one is done.
"use client";
import { CheckCircle2, CircleAlert, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, type DragEvent } from "react";
import { formatBytes } from "@/components/format";
import { cn } from "@/components/ui/cn";
import { buttonClasses } from "@/components/ui/button";
import { acceptedExtensions, kindOfFile, MAX_ASSET_BYTES } from "@/lib/assets/kinds";
import type { RegisteredAsset, RegisterAssetInput } from "@/lib/assets/schemas";
import type { ActionResult } from "@/lib/console/action";

type Upload = { key: string; name: string; size: number; phase: "waiting" | "hashing" | "uploading" | "done" | "failed"; percent: number; message?: string };

export type AssetUploaderProps = {
  register: (input: RegisterAssetInput) => Promise<ActionResult<RegisteredAsset>>;
  /** Only images (PNG, JPEG, SVG), as the template editor's image picker takes them. */
  imagesOnly?: boolean;
  /** Called after each finished upload instead of refreshing the page (the image picker reads its list again). */
  onUploaded?: () => void;
};

const imageExtensions = [".png", ".jpg", ".jpeg", ".svg"];

async function sha256Hex(file: File): Promise<string> {
  if (!globalThis.crypto?.subtle) throw new Error("This browser cannot compute checksums on a page served without HTTPS; open the console over HTTPS");
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** PUTs the file with the registered headers; the browser sets content-length itself. */
function put(url: string, headers: Record<string, string>, file: File, onProgress: (fraction: number) => void): Promise<{ status: number; text: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", url);
    for (const [name, value] of Object.entries(headers)) if (name !== "content-length") xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => resolve({ status: 0, text: "" });
    xhr.send(file);
  });
}

const errorOf = (text: string) => {
  try {
    return (JSON.parse(text) as { error?: { message?: string } }).error?.message;
  } catch {
    return undefined;
  }
};

export function AssetUploader({ register, imagesOnly = false, onUploaded }: AssetUploaderProps) {
  const router = useRouter();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const queue = useRef(Promise.resolve());

  const update = (key: string, change: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...change } : u)));

  const uploadOne = async (file: File, key: string) => {
    const fail = (message: string) => update(key, { phase: "failed", message });
    const type = kindOfFile(file.name);
    if (!type) return fail(`Folio takes ${acceptedExtensions.join(", ")} files`);
    if (imagesOnly && type.kind !== "image" && type.kind !== "svg") return fail("Only PNG, JPEG and SVG images can be picked for an image");
    if (file.size === 0) return fail("The file is empty");
    if (file.size > MAX_ASSET_BYTES) return fail(`The file has ${formatBytes(file.size)}; assets may have at most ${formatBytes(MAX_ASSET_BYTES)}`);
    try {
      update(key, { phase: "hashing" });
      const sha256 = await sha256Hex(file);
      const registered = await register({ kind: type.kind, mediaType: type.mediaType, filename: file.name, size: file.size, sha256 });
      if (!registered.ok) return fail(registered.error.details?.[0]?.message ? `${registered.error.details[0].path ?? ""} ${registered.error.details[0].message}`.trim() : registered.error.message);
      update(key, { phase: "uploading", percent: 0 });
      const sent = await put(registered.data.uploadUrl, registered.data.uploadHeaders, file, (f) => update(key, { percent: Math.round(f * 100) }));
      if (sent.status !== 200) return fail(errorOf(sent.text) ?? "The upload did not reach Folio; check the connection and try again");
      update(key, { phase: "done", percent: 100 });
      if (onUploaded) onUploaded();
      else router.refresh();
    } catch (e) {
      fail(e instanceof Error ? e.message : "The upload failed");
    }
  };

  const add = (files: FileList | File[]) => {
    const list = [...files];
    if (!list.length) return;
    const added = list.map((f) => ({ file: f, upload: { key: crypto.randomUUID(), name: f.name, size: f.size, phase: "waiting" as const, percent: 0 } }));
    setUploads((u) => [...added.map((a) => a.upload), ...u].slice(0, 20));
    // One at a time: each file gets the whole connection, and the bars move in order.
    for (const a of added) queue.current = queue.current.then(() => uploadOne(a.file, a.upload.key));
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    add(e.dataTransfer.files);
  };

  return (
    <section aria-label={imagesOnly ? "Upload images" : "Upload assets"} className={imagesOnly ? "" : "mb-6"}>
      <div
        data-testid="asset-drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          "flex flex-col items-center gap-3 rounded-lg border-2 border-dashed bg-white px-4 text-center transition-colors",
          imagesOnly ? "py-4" : "py-8",
          dragging ? "border-accent bg-accent-soft" : "border-gray-300",
        )}
      >
        <Upload aria-hidden="true" className="size-6 text-accent" />
        <p className="text-sm text-gray-700">
          {imagesOnly ? "Drop PNG, JPEG or SVG images here, or" : "Drop fonts, images, stylesheets or workbooks here, or"}
        </p>
        <label htmlFor={inputId} className={buttonClasses("secondary", "sm", "cursor-pointer focus-within:outline-2 focus-within:outline-ring")}>
          Choose files
          <input
            ref={input}
            id={inputId}
            type="file"
            multiple
            accept={(imagesOnly ? imageExtensions : acceptedExtensions).join(",")}
            className="sr-only"
            onChange={(e) => {
              add(e.currentTarget.files ?? []);
              e.currentTarget.value = "";
            }}
          />
        </label>
        <p className="text-xs text-gray-600">{imagesOnly ? "PNG, JPEG, SVG" : "PNG, JPEG, SVG, WOFF2, WOFF, TTF, OTF, CSS, XLSX"} · up to 50 MB each</p>
      </div>
      {uploads.length > 0 && (
        <ul aria-label="Uploads" className="mt-3 divide-y divide-gray-200 rounded-lg border border-gray-200 bg-white">
          {uploads.map((u) => (
            <li key={u.key} className="flex flex-col gap-1.5 px-4 py-3 text-sm">
              <div className="flex items-center justify-between gap-3">
                <span className="min-w-0 truncate font-medium text-gray-900" title={u.name}>
                  {u.name}
                </span>
                <span className="shrink-0 text-xs text-gray-600">{formatBytes(u.size)}</span>
              </div>
              {u.phase === "failed" ? (
                <p role="alert" className="flex items-start gap-1.5 text-danger">
                  <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                  <span>Not uploaded: {u.message}</span>
                </p>
              ) : u.phase === "done" ? (
                <p className="flex items-center gap-1.5 text-success">
                  <CheckCircle2 aria-hidden="true" className="size-4" /> Uploaded
                </p>
              ) : (
                <div className="flex items-center gap-3">
                  <div
                    role="progressbar"
                    aria-label={`Upload of ${u.name}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={u.percent}
                    className="h-2 flex-1 overflow-hidden rounded-full bg-gray-100"
                  >
                    <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${u.percent}%` }} />
                  </div>
                  <span className="w-24 shrink-0 text-right text-xs text-gray-600" aria-live="polite">
                    {u.phase === "waiting" ? "Waiting" : u.phase === "hashing" ? "Checking" : `${u.percent}%`}
                  </span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
