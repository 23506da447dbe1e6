/**
 * A text node or attribute over libxml2's default 10 MB limit (a base64 licence text): valid as in JSON, the
 * document's size bounded by --max-size instead (issue 43).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { runCli, tempDirs } from '../helpers.js';

const tempDir = tempDirs();
const NS = 'http://cyclonedx.org/schema/bom/1.6';
// Just over libxml2's XML_MAX_TEXT_LENGTH (10,000,000), and just under it.
const OVER = 'QUJD'.repeat(2_500_001);
const UNDER = 'QUJD'.repeat(2_499_999);

const withText = (text: string) =>
  `<bom xmlns="${NS}" version="1"><components><component type="library"><name>a</name><licenses><license>` +
  `<name>custom</name><text content-type="text/plain" encoding="base64">${text}</text></license></licenses>` +
  `</component></components></bom>`;
const withAttribute = (value: string) =>
  `<bom xmlns="${NS}" version="1"><components><component type="library" bom-ref="${value}"><name>a</name>` +
  `</component></components></bom>`;

describe('huge text nodes and attributes', () => {
  it.each([
    ['a text node', withText],
    ['an attribute', withAttribute],
  ])(
    '%s of 10,000,004 characters is valid XML, as its content is valid JSON',
    async (_what, make) => {
      for (const content of [UNDER, OVER]) {
        const result = await validate(make(content));
        expect(result.diagnostics).toEqual([]);
        expect(result.valid).toBe(true);
      }
      const json = {
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        version: 1,
        components: [{ type: 'library', name: 'a', 'bom-ref': OVER }],
      };
      expect((await validate(JSON.stringify(json))).valid).toBe(true);
    },
    120_000,
  );

  it('the document is bounded by --max-size instead', async () => {
    const file = path.join(tempDir(), 'bom.xml');
    const text = withText(OVER);
    writeFileSync(file, text);
    const refused = await runCli(['validate', file, '--max-size', String(text.length - 1)]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/over the --max-size limit/);
    const read = await runCli(['validate', file, '--max-size', String(text.length)]);
    expect(read.stderr).toBe('');
    expect(read.code).toBe(0);
  }, 120_000);
});
