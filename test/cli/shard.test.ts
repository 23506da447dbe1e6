import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { shardOf } from '../../src/index.js';
import { minimalBom, runCli, tempDir } from '../helpers.js';

const FORMATS = ['sarif', 'json', 'junit'] as const;
const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * A repository of 40 documents under sboms/: valid ones, invalid ones, ones with warnings, one with a duplicate
 * key, names that sort differently once encoded (`a(b`, `a+b`, `a;b`, `a<b`, a space, non-ASCII), a non-BOM
 * JSON file (skipped) and a named pipe given as an operand (unreadable: a failure, exit 2).
 */
function repository(): string {
  const dir = tempDir('bomwright-shard-');
  mkdirSync(path.join(dir, '.git'));
  mkdirSync(path.join(dir, 'sboms/team a'), { recursive: true });
  mkdirSync(path.join(dir, 'sboms/é'), { recursive: true });
  const names = ['a(b', 'a+b', 'a;b', 'a<b', 'Upper', 'team a/x', 'é/y'];
  for (let i = 0; i < 40; i++) {
    const name = i < names.length ? names[i]! : `${i % 2 ? 'team a/' : ''}bom-${i}`;
    const extra =
      i % 5 === 0 || i < names.length
        ? { version: 0 }
        : i % 7 === 0
          ? { serialNumber: 'urn:uuid:00000000-0000-0000-0000-000000000000' }
          : {};
    writeFileSync(path.join(dir, `sboms/${name}.json`), json(minimalBom('1.6', extra)));
  }
  writeFileSync(
    path.join(dir, 'sboms/dup.json'),
    '{"bomFormat": "CycloneDX", "specVersion": "1.6", "version": 1, "version": 2}',
  );
  writeFileSync(path.join(dir, 'sboms/package.json'), json({ name: 'not-a-bom', version: '1.0.0' }));
  execFileSync('mkfifo', [path.join(dir, 'pipe.json')]);
  return dir;
}

/** The operands every run of these tests uses. */
const OPERANDS = ['sboms', 'pipe.json'];

async function shardPaths(dir: string, index: number, count: number): Promise<string[]> {
  const run = await runCli(['validate', ...OPERANDS, '--shard', `${index}/${count}`, '-f', 'json'], { cwd: dir });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout).documents.map((d: { path: string }) => d.path);
}

describe('validate --shard', () => {
  it('puts every document in exactly one shard for N = 1..7', async () => {
    const dir = repository();
    const all = await runCli(['validate', ...OPERANDS, '-f', 'json'], { cwd: dir });
    expect(all.code).toBe(2); // the pipe cannot be read
    const everything = JSON.parse(all.stdout).documents.map((d: { path: string }) => d.path);
    expect(everything).toHaveLength(42);
    for (let count = 1; count <= 7; count++) {
      // The shards of one N run side by side, as a CI matrix runs them (28 sequential runs outlast the timeout on a
      // loaded machine).
      const shards = await Promise.all(Array.from({ length: count }, (_, i) => shardPaths(dir, i + 1, count)));
      const seen: string[] = [];
      shards.forEach((paths, i) => {
        for (const p of paths) expect(shardOf(p, count), p).toBe(i + 1);
        seen.push(...paths);
      });
      expect([...seen].sort(), `N = ${count}`).toEqual([...everything].sort());
    }
  }, 180_000);

  it('keeps every placement when files are added: only the new files are placed', async () => {
    const dir = repository();
    const placement = async () => {
      const where = new Map<string, number>();
      for (let index = 1; index <= 4; index++) for (const p of await shardPaths(dir, index, 4)) where.set(p, index);
      return where;
    };
    const before = await placement();
    for (let i = 0; i < 10; i++) writeFileSync(path.join(dir, `sboms/added-${i}.json`), json(minimalBom()));
    const after = await placement();
    expect(after.size).toBe(before.size + 10);
    for (const [p, index] of before) expect(after.get(p), p).toBe(index);
  });

  for (const format of FORMATS) {
    it(`${format}: the merged report of four shards is the unsharded report, byte for byte`, async () => {
      const dir = repository();
      const single = await runCli(['validate', ...OPERANDS, '-f', format, '-o', `all.${format}`], { cwd: dir });
      expect(single.code).toBe(2);
      const shards: string[] = [];
      for (const index of [1, 2, 3, 4]) {
        const file = `shard-${index}.${format}`;
        const run = await runCli(['validate', ...OPERANDS, '--shard', `${index}/4`, '-f', format, '-o', file], {
          cwd: dir,
        });
        expect(run.stderr).toBe('');
        expect(run.code).toBeGreaterThan(0); // every shard of 40 documents, one in five invalid, holds one
        shards.push(file);
      }
      const merge = await runCli(['merge-reports', ...shards.reverse(), '-f', format, '-o', `merged.${format}`], {
        cwd: dir,
      });
      expect([merge.code, merge.stdout, merge.stderr]).toEqual([0, '', '']);
      const merged = readFileSync(path.join(dir, `merged.${format}`), 'utf8');
      expect(merged).toBe(readFileSync(path.join(dir, `all.${format}`), 'utf8'));
      expect(merged).toContain(
        format === 'sarif' ? 'sboms/a%2Bb.json' : format === 'json' ? 'sboms/a+b.json' : 'sboms/a&lt;b.json',
      );
    });

    it(`${format} --quiet on stdout: the merged report is the unsharded one, byte for byte`, async () => {
      const dir = repository();
      const args = ['validate', ...OPERANDS, '--quiet', '-f', format];
      const single = await runCli(args, { cwd: dir });
      for (const index of [1, 2, 3, 4]) {
        const run = await runCli([...args, '--shard', `${index}/4`], { cwd: dir });
        writeFileSync(path.join(dir, `q${index}.${format}`), run.stdout);
      }
      // The format comes from the reports when not given.
      const merge = await runCli(['merge-reports', 'q1.' + format, 'q2.' + format, 'q3.' + format, 'q4.' + format], {
        cwd: dir,
      });
      expect(merge.code).toBe(0);
      expect(merge.stdout).toBe(single.stdout);
      // --quiet drops the warnings: the reports really are the quiet ones.
      const loud = await runCli(
        args.filter((a) => a !== '--quiet'),
        { cwd: dir },
      );
      expect(loud.stdout).not.toBe(single.stdout);
    });
  }

  it('passes a shard that no document fell to; its report still merges', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, '.git'));
    writeFileSync(path.join(dir, 'only.json'), json(minimalBom()));
    const mine = shardOf('only.json', 3);
    const empty = mine === 1 ? 2 : 1;
    const text = await runCli(['validate', '.', '--shard', `${empty}/3`], { cwd: dir });
    expect([text.code, text.stdout, text.stderr]).toEqual([0, `No BOM documents in shard ${empty}/3\n`, '']);
    expect((await runCli(['validate', '.', '--shard', `${empty}/3`, '-q'], { cwd: dir })).stdout).toBe('');
    for (const index of [1, 2, 3]) {
      const run = await runCli(['validate', '.', '--shard', `${index}/3`, '-f', 'sarif', '-o', `s${index}.sarif`], {
        cwd: dir,
      });
      expect(run.code).toBe(0);
    }
    const log = JSON.parse(readFileSync(path.join(dir, `s${empty}.sarif`), 'utf8'));
    expect(log.runs[0].invocations[0].properties.shard).toMatchObject({ index: empty, count: 3, documents: 0 });
    const merged = await runCli(['merge-reports', 's1.sarif', 's2.sarif', 's3.sarif'], { cwd: dir });
    expect(merged.code).toBe(0);
    expect(merged.stdout).toBe((await runCli(['validate', '.', '-f', 'sarif'], { cwd: dir })).stdout);
  });

  it('fails the merge, not the shards, when no shard found a BOM; operands that name nothing fail at once', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'none'));
    writeFileSync(path.join(dir, 'none/package.json'), json({ name: 'x' }));
    for (const index of [1, 2]) {
      const run = await runCli(['validate', 'none', '--shard', `${index}/2`, '-f', 'json', '-o', `${index}.json`], {
        cwd: dir,
      });
      expect(run.code).toBe(0);
    }
    const merge = await runCli(['merge-reports', '1.json', '2.json'], { cwd: dir });
    expect([merge.code, merge.stderr]).toEqual([2, 'bomwright: E_NO_MATCH: No BOM documents in any of the 2 shards\n']);
    mkdirSync(path.join(dir, 'empty'));
    const nothing = await runCli(['validate', 'empty', '--shard', '1/2'], { cwd: dir });
    expect([nothing.code, nothing.stderr]).toEqual([2, 'bomwright: E_NO_MATCH: No BOM documents found in empty\n']);
  });

  it.each([
    [['--shard', '0/4'], '--shard must be I/N, shard I of N with 1 ≤ I ≤ N ≤ 999999 (e.g. 2/4), not "0/4"'],
    [['--shard', '5/4'], '--shard must be I/N, shard I of N with 1 ≤ I ≤ N ≤ 999999 (e.g. 2/4), not "5/4"'],
    [['--shard', '1/0'], '--shard must be I/N, shard I of N with 1 ≤ I ≤ N ≤ 999999 (e.g. 2/4), not "1/0"'],
    [['--shard', 'two'], '--shard must be I/N, shard I of N with 1 ≤ I ≤ N ≤ 999999 (e.g. 2/4), not "two"'],
    [['--shard', '1/2', '--staged'], '--shard cannot be used with --staged: a pre-commit check is one process'],
    [
      ['--shard', '1/2', '--baseline', 'sboms/Upper.json'],
      '--shard cannot be used with --baseline, which compares one document',
    ],
    [['--shard', '1/2', '-'], '--shard cannot take standard input (-): it has no path to be placed by'],
  ])('refuses %j: exit 2, one line', async (args, message) => {
    const dir = repository();
    const run = await runCli(['validate', 'sboms/a(b.json', ...args], { cwd: dir, input: '{}' });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`bomwright: E_USAGE: ${message}\n`);
    expect(run.stdout).toBe('');
  });

  it("refuses -o onto another shard's input", async () => {
    const dir = repository();
    const victim = readdirSync(path.join(dir, 'sboms'))
      .map((name) => `sboms/${name}`)
      .find((p) => p.endsWith('.json') && shardOf(p, 2) === 2)!;
    const before = readFileSync(path.join(dir, victim), 'utf8');
    const run = await runCli(['validate', 'sboms', '--shard', '1/2', '-f', 'json', '-o', victim], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`E_USAGE: Refusing to write ${victim}: it is an input of this command`);
    expect(readFileSync(path.join(dir, victim), 'utf8')).toBe(before);
  });
});

describe('merge-reports refuses what it cannot merge exactly: exit 2, one line naming the file', () => {
  async function shards(dir: string, format: string, extra: string[] = [], count = 2): Promise<string[]> {
    const files: string[] = [];
    for (let index = 1; index <= count; index++) {
      const file = `${format}-${count}-${index}${extra.join('')}.out`;
      await runCli(['validate', 'sboms', '--shard', `${index}/${count}`, '-f', format, '-o', file, ...extra], {
        cwd: dir,
      });
      files.push(file);
    }
    return files;
  }

  it('every case', async () => {
    const dir = repository();
    const [s1] = await shards(dir, 'sarif');
    const [j1, j2] = await shards(dir, 'json');
    const [, q2] = await shards(dir, 'json', ['-q']);
    const [t1] = await shards(dir, 'text');
    const [, , three] = await shards(dir, 'json', [], 3);
    await runCli(['validate', 'sboms', '-f', 'json', '-o', 'all.json'], { cwd: dir });
    writeFileSync(path.join(dir, 'broken.json'), readFileSync(path.join(dir, j2!), 'utf8').slice(0, 500));
    writeFileSync(path.join(dir, 'latin1.json'), Buffer.from([0x7b, 0xe9, 0x7d]));
    const cases: [string[], string][] = [
      [[s1!, j2!], `E_MERGE: ${j2}: is a json report, not sarif: merge the reports of one format`],
      [[j1!, j2!, '-f', 'sarif'], `E_MERGE: ${j1}: is a json report, not sarif: merge the reports of one format`],
      [[t1!], `E_MERGE: ${t1}: is neither JSON nor JUnit XML: not a json, sarif or junit report of bomwright validate`],
      [
        [j1!, 'broken.json'],
        'E_MERGE: broken.json: is neither JSON nor JUnit XML: not a json, sarif or junit report of bomwright validate',
      ],
      [['latin1.json'], 'E_MERGE: latin1.json: is not UTF-8 text, as bomwright writes its reports'],
      [
        ['all.json'],
        'E_MERGE: all.json: is not a shard report (it has no shard stamp): merge the reports of validate --shard I/N runs',
      ],
      [
        [j1!, q2!],
        `E_MERGE: ${q2}: comes from another run than ${j1} (other operands, options or bomwright version): run every shard with the same command`,
      ],
      [[j1!, three!], `E_MERGE: ${three}: is shard 3/3 but ${j1} is shard 1/2: merge the shards of one run`],
      [[j1!], "E_MERGE: shard 2/2 is missing: the merged report needs every shard's report"],
      [[j1!, j1!], `E_MERGE: ${j1}: is shard 1/2, and so is ${j1}`],
      [[j1!, 'missing.json'], 'E_NOT_FOUND: Cannot read ' + path.join(dir, 'missing.json') + ': no such file'],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['merge-reports', ...args], { cwd: dir });
      expect([run.code, run.stderr, run.stdout], args.join(' ')).toEqual([2, `bomwright: ${message}\n`, '']);
    }
    const none = await runCli(['merge-reports'], { cwd: dir });
    expect([none.code, none.stderr.split('\n')[0]]).toEqual([
      2,
      "bomwright: E_USAGE: Name every shard's report, e.g. bomwright merge-reports shards/*.sarif",
    ]);
    const stdin = await runCli(['merge-reports', j1!, '-'], { cwd: dir, input: '{}' });
    expect([stdin.code, stdin.stderr.split('\n')[0]]).toEqual([
      2,
      'bomwright: E_USAGE: merge-reports reads files, not standard input (-)',
    ]);
    const over = await runCli(['merge-reports', j1!, j2!, '-o', j2!], { cwd: dir });
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`E_USAGE: Refusing to write ${path.join(dir, j2!)}: it is a report to merge`);
  });
});
