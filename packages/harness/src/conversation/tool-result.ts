import type { Media, ToolResponse } from "../protocol/messages.js";

const mediaBrand = Symbol.for("ag-ui-antigravity.ToolResultWithMedia");

/** One image or file a custom tool returns beside its value, for the model to see. */
export interface ToolMedia {
  /** What the attachment is (`image/png`, `application/pdf`, ...), sent as given. */
  mimeType: string;
  /** Raw bytes, or a base64 string. */
  data: Uint8Array | string;
  /** What the attachment shows, sent with it; optional. */
  description?: string;
}

/** A custom tool's result with media attached, made by `withMedia`; a handler returns it as its value. */
export interface ToolResultWithMedia {
  /** Marks a value `withMedia` made, so no plain object a handler returns is mistaken for one. */
  readonly [mediaBrand]: true;
  /** The tool's result, sent as a plain return value would be; when undefined, a note counting the attachments is sent instead. */
  readonly value: unknown;
  /** The attachments, sent in the tool response's `supplementalMedia`. */
  readonly media: readonly ToolMedia[];
}

/**
 * Returns a tool result with attachments (images, documents) the model receives alongside the JSON
 * result, as `supplementalMedia`.
 *
 * @example
 * handler: async () => withMedia({ caption: "chart" }, [{ mimeType: "image/png", data: pngBytes }])
 */
export function withMedia(value: unknown, media: readonly ToolMedia[]): ToolResultWithMedia {
  return { [mediaBrand]: true, value, media };
}

function isResultWithMedia(value: unknown): value is ToolResultWithMedia {
  return value !== null && typeof value === "object" && (value as Record<symbol, unknown>)[mediaBrand] === true;
}

function toBase64(data: Uint8Array | string): string {
  return typeof data === "string" ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
}

/**
 * The toolResponse for a handler's return value: a JSON object is sent as is; anything else is
 * wrapped as `{"result": value}` (both SDKs' envelope).
 */
export function toolResponseFor(callId: string, value: unknown): ToolResponse {
  const withAttachments = isResultWithMedia(value);
  const result = withAttachments ? value.value : value;
  const media: Media[] = withAttachments
    ? value.media.map((item) => ({ mimeType: item.mimeType, data: toBase64(item.data), ...(item.description === undefined ? {} : { description: item.description }) }))
    : [];
  const isPlainObject = result !== null && typeof result === "object" && !Array.isArray(result);
  const envelope =
    withAttachments && result === undefined
      ? { result: `Returned ${media.length} media attachment(s).` }
      : isPlainObject
        ? result
        : { result: result === undefined ? null : result };
  return {
    id: callId,
    responseJson: JSON.stringify(envelope),
    ...(media.length > 0 ? { supplementalMedia: media } : {}),
  };
}

/** The toolResponse for a failed call: the model sees the message as the tool's error. */
export function toolErrorResponseFor(callId: string, message: string): ToolResponse {
  return { id: callId, errorMessage: message };
}
