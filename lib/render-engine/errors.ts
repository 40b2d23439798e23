/** spec: Errors > Render failures after the request returned: the diagnostics Folio produces. */
export type Diagnostic =
  | "max_pages"
  | "max_output_bytes"
  | "max_input_bytes"
  // spec: Limits > Renders (PDF, any API): the render-time row names LIMIT_EXCEEDED as its diagnostic;
  // the diagnostics table has no name of its own for a render past its time limit.
  | "LIMIT_EXCEEDED"
  | "render_process_exited"
  | "document_invalid"
  | "image_page_missing"
  | "image_too_large"
  | "pdf_postprocess_failed"
  | "font_invalid"
  | "image_invalid";

/** A final failure caused by the document or its limits: the render fails, no retry. */
export class RenderFailure extends Error {
  constructor(
    readonly code: "LIMIT_EXCEEDED" | "RENDER_FAILED" | "ASSET_INVALID",
    readonly diagnostic: Diagnostic,
    message: string,
  ) {
    super(message);
    this.name = "RenderFailure";
  }
}

/** A failure of the machinery (the browser went away): worth another attempt. */
export class TransientRenderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "TransientRenderError";
  }
}

/** Thrown when the render was cancelled while it ran; nothing is recorded, the cancel already was. */
export class RenderAborted extends Error {
  constructor(
    readonly reason: "cancelled" | "timeout",
    /** What the page was waiting for when it happened (settings.waitFor), in words. */
    readonly awaiting?: string,
  ) {
    super(`render ${reason}`);
    this.name = "RenderAborted";
  }
}
