/** BOM serial numbers: `urn:uuid:` and a lower-case RFC 4122 version-4 UUID. */
import { randomUUID } from 'node:crypto';
import { BomwrightError } from '../errors.js';

/** Source of random bytes; injectable so tests get deterministic serial numbers. */
export type RandomBytes = (bytes: number) => Uint8Array;

/** A fresh serial number from `random` (16 bytes), or from crypto.randomUUID when none is given. */
export function newSerialNumber(random?: RandomBytes): string {
  if (random === undefined) return `urn:uuid:${randomUUID()}`;
  const bytes = Uint8Array.from(random(16));
  if (bytes.length < 16) throw new BomwrightError('E_USAGE', `The random source gave ${bytes.length} bytes; 16 needed`);
  // RFC 4122 §4.4: version 4 in the high nibble of byte 6, variant 10xx in the high bits of byte 8.
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes.subarray(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
  return `urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
