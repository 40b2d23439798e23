import { z } from "zod";

/** spec: Storage destination > prefix, and Render destination > path: slash-separated names, no leading or trailing slash, no . or .. parts. */
export const KeyPath = z
  .string()
  .min(1, "must not be empty")
  .max(512, "must be at most 512 characters")
  .refine((s) => !s.startsWith("/") && !s.endsWith("/"), "must not start or end with a slash")
  .refine((s) => s.split("/").every((part) => part !== "" && part !== "." && part !== ".."), "must be slash-separated names without empty, . or .. parts")
  // why: control characters in object keys break listings and many S3-compatible stores.
  .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), "must not contain control characters");

const Name = z.string().trim().min(1, "give the destination a name").max(120, "must be at most 120 characters");
/** An S3 endpoint address; which addresses are allowed is checked by assertAllowedEndpoint (DNS included). */
const Endpoint = z.string().max(2048, "must be at most 2048 characters");
const Region = z.string().trim().min(1).max(64).regex(/^[a-z0-9-]+$/, "must be a region name such as us-east-1 or auto");
/** S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens (some stores allow underscores and capitals too). */
const Bucket = z.string().min(1).max(255).regex(/^[A-Za-z0-9._-]+$/, "must be a bucket name (letters, digits, dots, hyphens and underscores)");
const AccessKeyId = z.string().trim().min(1, "must not be empty").max(256);
const SecretAccessKey = z.string().min(1, "must not be empty").max(1024);

export const CreateDestinationInput = z.strictObject({
  name: Name,
  endpoint: Endpoint.optional(),
  region: Region.default("us-east-1"),
  bucket: Bucket,
  prefix: KeyPath.optional(),
  forcePathStyle: z.boolean().default(false),
  accessKeyId: AccessKeyId,
  secretAccessKey: SecretAccessKey,
});
export type CreateDestinationInput = z.infer<typeof CreateDestinationInput>;

/** PATCH: only the fields to change; null removes endpoint or prefix. */
export const UpdateDestinationInput = z
  .strictObject({
    name: Name.optional(),
    endpoint: Endpoint.nullable().optional(),
    region: Region.optional(),
    bucket: Bucket.optional(),
    prefix: KeyPath.nullable().optional(),
    forcePathStyle: z.boolean().optional(),
    accessKeyId: AccessKeyId.optional(),
    secretAccessKey: SecretAccessKey.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), "send at least one field to change");
export type UpdateDestinationInput = z.infer<typeof UpdateDestinationInput>;

/** The destination field of a render request or batch item (spec: Render destination). */
export const RenderDestinationInput = z.strictObject({
  name: z.string().min(1, "must not be empty").max(120, "must be at most 120 characters"),
  path: KeyPath.optional(),
  keepCopy: z.boolean().default(true),
});
export type RenderDestinationInput = z.infer<typeof RenderDestinationInput>;

/** A destination as the API shows it: never the secret. */
export const StorageDestination = z
  .object({
    id: z.string(),
    name: z.string(),
    endpoint: z.string().optional(),
    region: z.string(),
    bucket: z.string(),
    prefix: z.string().optional(),
    forcePathStyle: z.boolean(),
    accessKeyId: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "StorageDestination", description: "An S3-compatible bucket renders upload to; never its secret." });
export type StorageDestination = z.infer<typeof StorageDestination>;
const TestUpload = z.object({ objectKey: z.string(), deleted: z.boolean() }).meta({ description: "The test object written (and deleted) to check the credentials" });
export const StorageDestinationTested = StorageDestination.extend({ testUpload: TestUpload.optional() }).meta({
  id: "StorageDestinationTested",
  description: "A destination after a change, with the test upload that checked it (when the change needed one).",
});
export const StorageDestinationList = z.object({ items: z.array(StorageDestination) }).meta({ id: "StorageDestinationList" });
