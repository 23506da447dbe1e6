/**
 * A signature cannot pin a number of 2^53 or more (validate reports signature/unsafe-number), so signing refuses
 * such a document instead of producing one that validate then rejects; a number outside the signed objects does not
 * matter, and the file on disk is left as it was.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { expectErrorCode, minimalBom, runCli, tempDir } from '../helpers.js';
import { freshKey, freshKeyTexts } from './fixtures.js';

const key = freshKey('ES256');
const LARGE = '9007199254740992';
const withNumber = (value: number) =>
  minimalBom('1.6', {
    components: [
      { type: 'library', name: 'a', 'bom-ref': 'a', properties: [{ name: 'n', value: 'x' }] },
      { type: 'library', name: 'b', 'bom-ref': 'b', 'x-count': value },
    ],
  });

describe('signing a document with a number beyond 2^53', () => {
  it('is refused with E_INPUT, naming where the number is and how many there are', () => {
    const document = withNumber(2 ** 53);
    (document.components as Record<string, unknown>[])[0]!['x-other'] = -(2 ** 60);
    const error = expectErrorCode(() => sign(document, { key }), 'E_INPUT');
    expect(error.message).toBe(
      'Cannot sign: the number at /components/0/x-other is 2^53 or more (and 1 more), and a signature cannot pin it (write it as a string, or correct it)',
    );
  });

  it('is allowed just below 2^53, and when the number is outside every signed object', () => {
    expect(() => sign(withNumber(2 ** 53 - 1), { key })).not.toThrow();
    expect(() => sign(withNumber(2 ** 53), { key, targets: ['a'] })).not.toThrow();
    expectErrorCode(() => sign(withNumber(2 ** 53), { key, targets: ['b'] }), 'E_INPUT');
  });

  it('bomwright sign exits 1 with one line and leaves the file untouched', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'bom.json');
    const asset = {
      'bom-ref': 'crypto/aes',
      type: 'cryptographic-asset',
      name: 'AES-128-GCM',
      cryptoProperties: {
        assetType: 'algorithm',
        algorithmProperties: { primitive: 'ae', mode: 'gcm', classicalSecurityLevel: 1 },
      },
    };
    const text = JSON.stringify(minimalBom('1.6', { components: [asset] }), null, 2).replace(
      '"classicalSecurityLevel": 1',
      `"classicalSecurityLevel": ${LARGE}`,
    );
    writeFileSync(file, text);
    const keyFile = path.join(dir, 'key.jwk');
    writeFileSync(keyFile, freshKeyTexts('ES256').privateKey);
    const run = await runCli(['sign', file, '--key', keyFile]);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'bomwright: E_INPUT: Cannot sign: the number at /components/0/cryptoProperties/algorithmProperties/classicalSecurityLevel is 2^53 or more, and a signature cannot pin it (write it as a string, or correct it)',
    ]);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
