import { describe, expect, it } from 'vitest';
import { artifactsUrl, formatJobSummary } from '../../src/format/job-summary.js';

describe('formatJobSummary', () => {
  it('is a table row per document with its verdict, and a total line', () => {
    const text = formatJobSummary([
      {
        path: 'a.json',
        uri: 'sboms/a.json',
        result: { formatId: 'cyclonedx-1.6', diagnostics: [], errors: 0, warnings: 1, valid: true },
      },
      {
        path: 'b|`x`.json',
        uri: 'sboms/b|`x`.json',
        result: { formatId: 'cyclonedx-1.5', diagnostics: [], errors: 2, warnings: 0, valid: false },
      },
      { path: 'c.json', uri: 'c.json', failure: 'E_READ: Cannot read c.json: permission denied' },
    ]);
    expect(text.split('\n')).toEqual([
      '### bomwright',
      '',
      '3 documents: 2 errors, 1 warning',
      '',
      '| document | format | verdict | errors | warnings |',
      '|---|---|---|--:|--:|',
      '| `sboms/a.json` | cyclonedx-1.6 | ✅ valid | 0 | 1 |',
      "| `sboms/b\\|'x'.json` | cyclonedx-1.5 | ❌ invalid | 2 | 0 |",
      '| `c.json` |  | ⚠️ unreadable | 0 | 0 |',
      '',
    ]);
  });

  it('names the html report and links the run’s artifacts', () => {
    const url = artifactsUrl({ GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'a/b', GITHUB_RUN_ID: '7' });
    expect(url).toBe('https://github.com/a/b/actions/runs/7#artifacts');
    expect(artifactsUrl({ GITHUB_REPOSITORY: 'a/b' })).toBeUndefined();
    const lines = formatJobSummary([], { file: 'out/r|`x`.html', artifactsUrl: url! }).split('\n');
    expect(lines.at(-2)).toBe(
      "The full report, with each document's findings, signatures, version rule and dependency graph, is `out/r\\|'x'.html` among [this run's artifacts](https://github.com/a/b/actions/runs/7#artifacts) once uploaded.",
    );
    expect(formatJobSummary([], { file: 'r.html' })).toContain('dependency graph, is `r.html`.\n');
    expect(formatJobSummary([])).not.toContain('full report');
  });
});
