/**
 * The first bytes of a receiver's answer, kept with each delivery attempt (docs/webhooks.md, "Events and webhooks":
 * "Response excerpts"): at most {@link EXCERPT_BYTES} bytes, as UTF-8 text cut before a character the limit would
 * split, or marked binary when the bytes are not UTF-8 text.
 */

/** How many bytes of a response body an attempt keeps. */
export const EXCERPT_BYTES = 1024;

/** An attempt's excerpt of the response body (spec `DeliveryAttempt`'s `responseBody…` fields). */
export interface BodyExcerpt {
  /** The text, or null for an empty or binary body. */
  responseBodyExcerpt: string | null;
  /** The body was longer than the bytes read. */
  responseBodyTruncated: boolean;
  /** The bytes are not UTF-8 text, or hold a NUL (which Postgres text cannot store). */
  responseBodyBinary: boolean;
}

/** No response came: no body. */
export const NO_BODY: BodyExcerpt = {
  responseBodyExcerpt: null,
  responseBodyTruncated: false,
  responseBodyBinary: false,
};

/**
 * Where a cut at the end of `bytes` leaves whole characters: the length without a trailing UTF-8 sequence the cut
 * split (a lead byte whose continuation bytes are missing). Bytes that are not UTF-8 at all are left for the decoder
 * to refuse.
 */
function wholeCharacters(bytes: Uint8Array): number {
  // A sequence is at most 4 bytes: look back over at most 3 continuation bytes (10xxxxxx) for its lead byte.
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/**
 * The excerpt of a response body from its first bytes.
 * @param bytes the first bytes read (only the first {@link EXCERPT_BYTES} are looked at).
 * @param more whether the body went on after `bytes`.
 */
export function bodyExcerpt(bytes: Uint8Array, more: boolean): BodyExcerpt {
  const truncated = more || bytes.length > EXCERPT_BYTES;
  let head = bytes.subarray(0, EXCERPT_BYTES);
  if (truncated) head = head.subarray(0, wholeCharacters(head));
  if (head.length === 0) return { ...NO_BODY, responseBodyTruncated: truncated };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head);
  } catch {
    return { responseBodyExcerpt: null, responseBodyTruncated: truncated, responseBodyBinary: true };
  }
  if (text.includes('\u0000'))
    return { responseBodyExcerpt: null, responseBodyTruncated: truncated, responseBodyBinary: true };
  return { responseBodyExcerpt: text, responseBodyTruncated: truncated, responseBodyBinary: false };
}
