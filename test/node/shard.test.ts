import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseShard, shardStamp } from '../../src/node/shard.js';
import { shardOf, validateFiles, type ValidateFilesOptions } from '../../src/index.js';
import { expectErrorCode, minimalBom, tempDir } from '../helpers.js';

/** A repository (a .git folder is enough) with `count` BOMs under boms/, one invalid in five, and a non-BOM. */
function repository(count: number): string {
  const dir = tempDir();
  mkdirSync(path.join(dir, '.git'));
  mkdirSync(path.join(dir, 'boms/sub'), { recursive: true });
  for (let i = 0; i < count; i++) addBom(dir, `boms/${i % 3 === 0 ? 'sub/' : ''}bom-${i}.json`, i % 5 === 0);
  writeFileSync(path.join(dir, 'boms/package.json'), JSON.stringify({ name: 'not-a-bom' }));
  return dir;
}

function addBom(dir: string, file: string, invalid = false): void {
  writeFileSync(path.join(dir, file), JSON.stringify(minimalBom('1.6', invalid ? { version: 0 } : {})));
}

async function uris(dir: string, options: ValidateFilesOptions = {}, operands = ['boms']): Promise<string[]> {
  const { reports } = await validateFiles(operands, { cwd: dir, jobs: 1, ...options });
  return reports.map((r) => r.uri);
}

describe('parseShard', () => {
  it('reads I/N, 1-based', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard('999999/999999')).toEqual({ index: 999999, count: 999999 });
  });

  it.each([
    '0/4',
    '5/4',
    '1/0',
    '0/0',
    '-1/4',
    '1/-4',
    'x',
    '',
    '2',
    '2/',
    '/4',
    '2/4/1',
    '1.5/4',
    '01/4',
    ' 2/4',
    '2/4 ',
    '1/1000000',
  ])('refuses %j with one line naming the option', (text) => {
    const error = expectErrorCode(() => parseShard(text), 'E_USAGE');
    expect(error.message).toBe(
      `--shard must be I/N, shard I of N with 1 ≤ I ≤ N ≤ 999999 (e.g. 2/4), not ${JSON.stringify(text)}`,
    );
  });

  it('names the Action input when asked', () => {
    expect(expectErrorCode(() => parseShard('3/2', 'input shard'), 'E_USAGE').message).toMatch(/^input shard must/);
  });
});

describe('shardOf', () => {
  it('is (the first 6 bytes of SHA-256 of the uri, big-endian) mod N, plus 1', () => {
    // From Python: int(hashlib.sha256(uri.encode()).hexdigest()[:12], 16) % n + 1 for n = 1..7.
    const vectors: [string, number[]][] = [
      ['boms/a.json', [1, 2, 3, 4, 1, 6, 6]],
      ['sboms/service/bom.json', [1, 2, 1, 2, 2, 4, 2]],
      ['é/ü.json', [1, 2, 1, 4, 4, 4, 2]],
      ['', [1, 1, 2, 1, 5, 5, 2]],
    ];
    for (const [uri, shards] of vectors)
      expect(
        shards.map((_, n) => shardOf(uri, n + 1)),
        uri,
      ).toEqual(shards);
  });

  it('spreads many paths evenly', () => {
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[shardOf(`sboms/team-${i % 37}/bom-${i}.json`, 4) - 1]!++;
    for (const count of counts) expect(Math.abs(count - 1000)).toBeLessThan(100);
  });
});

describe('shardStamp', () => {
  const settings = { quiet: false, toolVersion: '1.0.0' };

  it('is the same on every machine and for every spelling of the working directory', () => {
    const [a, b] = [tempDir(), tempDir()];
    for (const dir of [a, b]) {
      mkdirSync(path.join(dir, '.git/x'), { recursive: true });
      mkdirSync(path.join(dir, 'sub'));
    }
    const stamp = shardStamp({ index: 2, count: 4 }, { cwd: path.join(a, 'sub'), operands: ['.'], settings });
    expect(stamp).toEqual({ index: 2, count: 4, settings: expect.stringMatching(/^[0-9a-f]{16}$/) });
    for (const cwd of [path.join(a, 'sub') + path.sep, path.join(a, 'sub/../sub'), path.join(b, 'sub')])
      expect(shardStamp({ index: 2, count: 4 }, { cwd, operands: ['.'], settings })).toEqual(stamp);
  });

  it('differs for another working directory, other operands or other settings', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, '.git'));
    mkdirSync(path.join(dir, 'sub'));
    const digest = (cwd: string, operands: string[], s: Record<string, unknown>) =>
      shardStamp({ index: 1, count: 2 }, { cwd, operands, settings: s }).settings;
    const base = digest(dir, ['.'], settings);
    expect(digest(path.join(dir, 'sub'), ['.'], settings)).not.toBe(base);
    expect(digest(dir, ['boms'], settings)).not.toBe(base);
    expect(digest(dir, ['.'], { ...settings, quiet: true })).not.toBe(base);
    expect(digest(dir, ['.'], { ...settings, toolVersion: '1.0.1' })).not.toBe(base);
    expect(digest(dir, ['.'], settings)).toBe(base);
  });
});

describe('validateFiles({ shard })', () => {
  it('puts every document in exactly one shard, by its uri, for N = 1..7', async () => {
    const dir = repository(30);
    const all = await uris(dir);
    expect(all).toHaveLength(30);
    for (let count = 1; count <= 7; count++) {
      const seen: string[] = [];
      for (let index = 1; index <= count; index++) {
        const shard = await uris(dir, { shard: { index, count } });
        for (const uri of shard) expect(shardOf(uri, count), uri).toBe(index);
        expect(shard).toEqual([...shard].sort());
        seen.push(...shard);
      }
      expect(seen.sort()).toEqual(all);
    }
  });

  it('checks only its own inputs: the others are not read', async () => {
    const dir = repository(12);
    let started: readonly string[] = [];
    let found: readonly string[] = [];
    let done = 0;
    const { reports } = await validateFiles(['boms'], {
      cwd: dir,
      jobs: 1,
      shard: { index: 2, count: 3 },
      onStart: (sources, all) => ((started = sources), (found = all)),
      onFile: () => done++,
    });
    expect(found).toHaveLength(13);
    expect(started.length).toBeLessThan(13);
    expect(done).toBe(started.length);
    expect(reports.map((r) => path.join(dir, r.uri))).toEqual(started.filter((s) => !s.endsWith('package.json')));
  });

  it('places a file by its repository path, whatever the working directory or operand spelling', async () => {
    const dir = repository(20);
    const shard = { index: 1, count: 3 };
    const fromRoot = await uris(dir, { shard });
    expect(await uris(path.join(dir, 'boms'), { shard }, ['.'])).toEqual(fromRoot);
    expect(await uris(dir, { shard }, ['./boms/', 'boms/**/*.json'])).toEqual(fromRoot);
  });

  it('keeps every placement when files are added: only the new files are placed', async () => {
    const dir = repository(20);
    const before = new Map<string, number>();
    for (let index = 1; index <= 4; index++)
      for (const uri of await uris(dir, { shard: { index, count: 4 } })) before.set(uri, index);
    for (let i = 0; i < 15; i++) addBom(dir, `boms/new-${i}.json`);
    const after = new Map<string, number>();
    for (let index = 1; index <= 4; index++)
      for (const uri of await uris(dir, { shard: { index, count: 4 } })) after.set(uri, index);
    expect(after.size).toBe(35);
    for (const [uri, index] of before) expect(after.get(uri), uri).toBe(index);
  });

  it('passes a shard that no document fell to, but not operands that name nothing', async () => {
    const dir = repository(1);
    const uri = 'boms/sub/bom-0.json';
    const other = shardOf(uri, 2) === 1 ? 2 : 1;
    expect(await uris(dir, { shard: { index: other, count: 2 } })).toEqual([]);
    expect(await uris(dir, { shard: { index: 3 - other, count: 2 } })).toEqual([uri]);
    // Only a non-BOM JSON file falls to a shard: still not an error, since another shard may hold BOMs.
    mkdirSync(path.join(dir, 'other'));
    writeFileSync(path.join(dir, 'other/package.json'), '{}');
    for (const index of [1, 2]) expect(await uris(dir, { shard: { index, count: 2 } }, ['other'])).toEqual([]);
    // Unsharded, that is no BOM at all; and a folder without JSON files names nothing, sharded or not.
    await expect(uris(dir, {}, ['other'])).rejects.toMatchObject({ code: 'E_NO_MATCH' });
    mkdirSync(path.join(dir, 'empty'));
    await expect(uris(dir, { shard: { index: 1, count: 2 } }, ['empty'])).rejects.toMatchObject({
      code: 'E_NO_MATCH',
      message: 'No BOM documents found in empty',
    });
  });

  it.each([
    [
      { versionRule: { staged: true as const } },
      ['boms'],
      '--shard cannot be used with --staged: a pre-commit check is one process',
    ],
    [
      { versionRule: { baseline: 'boms/bom-1.json' } },
      ['boms/bom-2.json'],
      '--shard cannot be used with --baseline, which compares one document',
    ],
    [{}, ['boms', '-'], '--shard cannot take standard input (-): it has no path to be placed by'],
  ])('refuses what cannot be sharded: %j', async (options, operands, message) => {
    const dir = repository(3);
    await expect(uris(dir, { ...options, shard: { index: 1, count: 2 } }, operands)).rejects.toMatchObject({
      code: 'E_USAGE',
      message,
    });
  });
});
