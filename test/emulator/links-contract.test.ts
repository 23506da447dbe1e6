/**
 * Paging tokens ($skiptoken, $deltatoken): what one emulator seals, it opens again; anything else (edited, forged
 * with another key, too long, not an object) opens to nothing, never to a crash.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { linkTokens } from '../../src/emulator/links.js';
import type { JsonRecord } from '../../src/emulator/store.js';

const secret = randomBytes(32).toString('base64url');
const links = linkTokens(secret);

/** A token made by hand as the scheme says: base64url(JSON) "." first 16 bytes of HMAC-SHA256 under the secret. */
function handMade(data: string, key = secret): string {
  const mac = createHmac('sha256', Buffer.from(key, 'base64url')).update(data).digest().subarray(0, 16);
  return `${data}.${mac.toString('base64url')}`;
}

/** A sealed token whose JSON payload is `bytes` long. */
function sealedOfPayload(bytes: number): string {
  return links.seal({ pad: 'x'.repeat(bytes - '{"pad":""}'.length) });
}

describe('a paging token', () => {
  it('opens to the payload it was sealed with, in this emulator and in another with the same secret', () => {
    const payload = { user: 'u', folder: 'inbox', after: ['2024-01-01', 3], top: null };
    const token = links.seal(payload);
    expect(token).toMatch(/^[\w-]+\.[\w-]{22}$/);
    expect(links.open(token)).toEqual(payload);
    expect(linkTokens(secret).open(token)).toEqual(payload);
    expect(links.open(handMade(Buffer.from(JSON.stringify(payload)).toString('base64url')))).toEqual(payload);
  });

  it('opens to nothing once edited anywhere, or sealed under another secret', () => {
    const token = links.seal({ user: 'u', round: 1 });
    const [data, mac] = token.split('.') as [string, string];
    const edited = Buffer.from(JSON.stringify({ user: 'v', round: 1 })).toString('base64url');
    expect(links.open(`${edited}.${mac}`)).toBeUndefined();
    // The first character carries six bits of the MAC (the last one only two, and random tokens may end in 'AA').
    expect(links.open(`${data}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`)).toBeUndefined();
    expect(links.open(`${data}.${mac.slice(0, 10)}`)).toBeUndefined();
    expect(links.open(`${data}.`)).toBeUndefined();
    expect(links.open(data)).toBeUndefined();
    expect(links.open('')).toBeUndefined();
    expect(linkTokens(randomBytes(32).toString('base64url')).open(token)).toBeUndefined();
    expect(links.open(handMade(data, randomBytes(32).toString('base64url')))).toBeUndefined();
  });

  it('opens to nothing when its payload is not a JSON object, even with a valid seal', () => {
    for (const value of [null, [1, 2], 'text', 7, true])
      expect(links.open(links.seal(value as unknown as JsonRecord)), JSON.stringify(value)).toBeUndefined();
    expect(links.open(handMade(Buffer.from('{"user":').toString('base64url')))).toBeUndefined();
    expect(links.open(handMade(Buffer.from([0xff, 0xfe, 0x00]).toString('base64url')))).toBeUndefined();
  });

  it('is read up to 8192 characters and refused beyond, however valid', () => {
    // 6125 payload bytes make 8167 characters of data; with the dot and a padded seal, 8192 in all.
    const fits = sealedOfPayload(6125);
    expect(fits.length).toBe(8190);
    expect(links.open(`${fits}==`)).toEqual(links.open(fits));
    expect(links.open(`${fits}==`)).not.toBeUndefined();
    const over = sealedOfPayload(6126);
    expect(`${over}==`.length).toBe(8193);
    expect(links.open(over)).not.toBeUndefined();
    expect(links.open(`${over}==`)).toBeUndefined();
  });
});
