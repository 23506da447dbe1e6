/**
 * Strict base64url (RFC 4648 §5, no padding), as JSF requires. Node's decoder is lenient (padding, skipped
 * characters), so input is checked by alphabet, length and a canonical round trip before it is trusted.
 */
const ALPHABET = /^[A-Za-z0-9_-]*$/;

export function encodeBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/** The decoded bytes, or undefined when `text` is not canonical unpadded base64url. */
export function decodeBase64url(text: string): Buffer | undefined {
  if (!ALPHABET.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Rejects non-zero trailing bits in the last character, which lenient decoders silently drop.
  return bytes.toString('base64url') === text ? bytes : undefined;
}
