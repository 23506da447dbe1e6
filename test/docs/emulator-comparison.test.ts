/**
 * docs/emulator-comparison.md compares the emulator's stub and fault features with WireMock's and Dev Proxy's; each bomwright
 * "yes" names the test that shows it. Those tests must exist under the names given, so that the table cannot claim
 * what no test holds.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';

const page = readFileSync(path.join(ROOT, 'docs/emulator-comparison.md'), 'utf8');
const rows = page
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| feature') && !line.startsWith('|---'))
  .map((line) => line.slice(2, -2).split(' | '));

describe('docs/emulator-comparison.md', () => {
  it('has a row per feature with WireMock, Dev Proxy and bomwright', () => {
    expect(rows.length).toBeGreaterThanOrEqual(20);
    for (const row of rows) expect(row, row[0]).toHaveLength(4);
  });

  it('backs each bomwright "yes" with a test that exists under the name given', () => {
    for (const [feature, , , bomwright] of rows) {
      if (!bomwright!.startsWith('yes')) continue;
      const named = /`(test\/[^`]+\.test\.ts)` › (.+)$/.exec(bomwright!);
      expect(named, `${feature}: no test named`).not.toBeNull();
      const source = readFileSync(path.join(ROOT, named![1]!), 'utf8');
      // The title as written in it('…') (prettier may wrap it onto the next line, never split it).
      expect(source, `${feature}: ${named![1]} has no test "${named![2]}"`).toMatch(
        new RegExp(`\\bit(?:\\.\\w+)?\\(\\s*(?:'|")${named![2]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:'|")`),
      );
    }
  });
});
