export { Folio, hasEnded, type CallOptions, type FetchOptions, type FolioOptions, type ReadOptions, type ReportFile, type WaitOptions } from "./client.js";
export { FolioError, type ErrorDetail } from "./errors.js";
export { verifyWebhook, type VerifyOptions, type WebhookHeaders } from "./webhooks.js";
export type { AnswerOf, BatchRequest, BatchSummary, BodyOf, components, paths, QueryOf, Render, RenderRequest, ReportRequest, RequestOptions } from "./types.js";
export { VERSION } from "./version.js";
