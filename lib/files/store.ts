import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { DeleteObjectsCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { config } from "../config";
import { makePrivateDir, writePrivateFile, writePrivateFileAsync } from "../private-files";

/**
 * The service's own file store (rendered files). Local disk under DATA_DIR/files by default, or an
 * S3-compatible bucket with FILE_STORE=s3 so several workers and web nodes share it.
 * Keys are slash-separated and made by Folio only (never from caller input).
 */
export interface FileStore {
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** Stores the file at `file` (a private spool file of this process's, read as a stream, never whole in memory) under `key`. */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** The file, as a stream or (small files) its bytes; null when it does not exist. */
  get(key: string): Promise<{ body: Readable | Uint8Array; size?: number } | null>;
  delete(keys: string[]): Promise<void>;
}

/** Files up to this size are written and read in one go (see LocalStore). */
const SMALL_FILE_BYTES = 1024 * 1024;

class LocalStore implements FileStore {
  /** Folders known to exist, so a put is one write and one rename. */
  private readonly folders = new Set<string>();
  constructor(private readonly root: string) {}

  private file(key: string) {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(this.root + path.sep)) throw new Error(`file key escapes the store: ${key}`);
    return p;
  }

  /**
   * Where `key`'s file goes, its folder made: `p`, and `tmp` beside it to write first and rename, so
   * a reader never sees half a file. Created 0700/0600 (lib/private-files.ts).
   */
  private target(key: string): { p: string; tmp: string } {
    const p = this.file(key);
    const dir = path.dirname(p);
    if (!this.folders.has(dir)) {
      makePrivateDir(dir);
      this.folders.add(dir);
    }
    return { p, tmp: `${p}.${process.pid}.${Date.now()}.tmp` };
  }

  /**
   * why synchronous: a rendered file is written once and read once on the render path, and each
   * asynchronous file operation is a round trip through libuv's thread pool that wakes two threads.
   * Small files on a local disk take far less time to write or read than those wake-ups cost.
   */
  async put(key: string, body: Uint8Array) {
    const { p, tmp } = this.target(key);
    if (body.byteLength <= SMALL_FILE_BYTES) {
      writePrivateFile(tmp, body);
      fs.renameSync(tmp, p);
    } else {
      await writePrivateFileAsync(tmp, body);
      await fsp.rename(tmp, p);
    }
  }

  async putFile(key: string, file: string) {
    const { p, tmp } = this.target(key);
    // why a copy and not a rename: the spool folder may be on another file system than the store.
    await fsp.copyFile(file, tmp);
    await fsp.chmod(tmp, 0o600);
    await fsp.rename(tmp, p);
  }

  async get(key: string) {
    const p = this.file(key);
    try {
      const { size } = fs.statSync(p);
      return { body: size <= SMALL_FILE_BYTES ? fs.readFileSync(p) : fs.createReadStream(p), size };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw e;
    }
  }

  async delete(keys: string[]) {
    await Promise.all(keys.map((k) => fsp.rm(this.file(k), { force: true })));
  }
}

class S3Store implements FileStore {
  private readonly client: S3Client;
  constructor(private readonly bucket: string) {
    const c = config();
    this.client = new S3Client({
      region: c.FILE_STORE_S3_REGION,
      endpoint: c.FILE_STORE_S3_ENDPOINT,
      forcePathStyle: c.FILE_STORE_S3_FORCE_PATH_STYLE,
      credentials: { accessKeyId: c.FILE_STORE_S3_ACCESS_KEY_ID!, secretAccessKey: c.FILE_STORE_S3_SECRET_ACCESS_KEY! },
      // why: with its default checksums the SDK sends a streamed body (putFile) in aws-chunked
      // encoding with a trailing checksum, which S3-compatible stores other than AWS may store as is.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async put(key: string, body: Uint8Array, contentType: string) {
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }));
  }

  async putFile(key: string, file: string, contentType: string) {
    const { size } = await fsp.stat(file);
    await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: fs.createReadStream(file), ContentLength: size, ContentType: contentType }));
  }

  async get(key: string) {
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!r.Body) return null;
      // why: in Node the SDK's body is a Node stream (IncomingMessage).
      return { body: r.Body as Readable, size: r.ContentLength };
    } catch (e) {
      if ((e as { name?: string }).name === "NoSuchKey") return null;
      throw e;
    }
  }

  async delete(keys: string[]) {
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      if (chunk.length) await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: chunk.map((Key) => ({ Key })), Quiet: true } }));
    }
  }
}

let store: FileStore | undefined;

/** A stored file's body as bytes (a small file's already are; a stream is read to its end). */
export async function bytesOf(body: Readable | Uint8Array): Promise<Uint8Array> {
  if (!(body instanceof Readable)) return body;
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function fileStore(): FileStore {
  if (!store) {
    const c = config();
    store = c.FILE_STORE === "s3" ? new S3Store(c.FILE_STORE_S3_BUCKET!) : new LocalStore(path.join(c.DATA_DIR, "files"));
  }
  return store;
}
