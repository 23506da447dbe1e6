import { describe, expect, it } from 'vitest';
import { decodeBase64url, encodeBase64url } from '../../src/jsf/base64url.js';

// JSF requires strict, unpadded base64url (RFC 4648 §5): one spelling per byte string.
describe('strict base64url', () => {
  it.each([
    ['', []],
    ['AA', [0]],
    ['AAE', [0, 1]],
    ['AAEC', [0, 1, 2]],
    ['_-8', [0xff, 0xef]],
  ])('decodes %j', (text, bytes) => {
    expect([...decodeBase64url(text)!]).toEqual(bytes);
    expect(encodeBase64url(Uint8Array.from(bytes))).toBe(text);
  });

  it.each([
    ['AA==', 'padding'],
    ['A', 'a length of 4n + 1'],
    ['AAAAA', 'a length of 4n + 1'],
    ['AB', 'non-zero bits after the last byte'],
    ['AAF', 'non-zero bits after the last byte'],
    ['+/8', 'the standard alphabet'],
    ['AA AA', 'white space'],
    ['AA\n', 'a line break'],
  ])('refuses %j (%s)', (text) => {
    expect(decodeBase64url(text)).toBeUndefined();
  });

  it('encodes a view of a larger buffer by its own bytes', () => {
    const backing = Uint8Array.of(1, 2, 3, 4, 5);
    expect(encodeBase64url(backing.subarray(1, 3))).toBe('AgM');
  });
});
