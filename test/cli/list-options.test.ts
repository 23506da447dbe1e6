/**
 * Repeatable options take one value per flag, so an operand written after one is an operand, not another value:
 * `verify --trust key.pem bom.json` verifies bom.json (a greedy list read it as a second key).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, SAMPLES, tempDir } from '../helpers.js';
import { freshKeyTexts } from '../jsf/fixtures.js';

const VALID = path.join(SAMPLES, 'valid-full-1.6.json');

function signedCopy(): { dir: string; file: string; key: string; trust: string } {
  const dir = tempDir();
  const { privateKey, trusted } = freshKeyTexts('ES256', 'release');
  const key = path.join(dir, 'release.key');
  const trust = path.join(dir, 'release.trust');
  const file = path.join(dir, 'bom.json');
  writeFileSync(key, privateKey);
  writeFileSync(trust, trusted);
  writeFileSync(file, readFileSync(VALID));
  return { dir, file, key, trust };
}

describe('a list option before the operands', () => {
  it('sign --target and --excludes, then verify and validate --trust, each before the document', async () => {
    const { file, key, trust } = signedCopy();
    const signed = await runCli(['sign', '--target', 'root', '--excludes', 'dependencies', file, '-k', key]);
    expect(signed.stderr).toBe('');
    expect(signed.code).toBe(0);
    const document = JSON.parse(readFileSync(file, 'utf8')) as {
      signature: { excludes?: string[] };
      components: { signature?: unknown }[];
    };
    expect(document.signature.excludes).toEqual(['dependencies']);
    expect(document.components.some((c) => c.signature !== undefined)).toBe(false);

    for (const [command, says] of [
      ['verify', 'valid, trusted'],
      ['validate', '1 document valid'],
    ] as const) {
      const run = await runCli([
        command,
        '--trust',
        trust,
        '--allow-excludes',
        'dependencies',
        file,
        '--require-trusted',
      ]);
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(says);
      expect(run.code).toBe(0);
    }
  });

  it('verify --allow-extensions before the document', async () => {
    const run = await runCli(['verify', '--allow-extensions', 'x-note', VALID, '--allow-unsigned']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(': OK');
    expect(run.code).toBe(0);
  });

  it('validate --profile NAME FILE checks FILE with the profile; a second word is an operand', async () => {
    const one = await runCli(['validate', '--profile', 'cra', VALID, '--format', 'json']);
    expect(one.code).toBe(0);
    const report = JSON.parse(one.stdout) as { documents: { path: string }[] };
    expect(report.documents.map((d) => d.path)).toEqual([path.relative(ROOT, VALID)]);
    const two = await runCli(['validate', VALID, '--profile', 'ntia-2021', 'cra']);
    expect(two.code).toBe(2);
    expect(two.stderr).toBe(
      'bomwright: E_NOT_FOUND: No such file or directory: cra; cra is a built-in compliance profile: give it with --profile cra\n',
    );
    // A missing operand that is not a profile's name gets no such hint, nor does a near miss of one.
    for (const operand of ['cra.json', 'bsi-2.2']) {
      const other = await runCli(['validate', VALID, operand]);
      expect(other.code).toBe(2);
      expect(other.stderr).toBe(`bomwright: E_NOT_FOUND: No such file or directory: ${operand}\n`);
    }
  });

  it('explain --profile FILE before the rule it explains', async () => {
    const dir = tempDir();
    const policy = path.join(dir, 'policy.json');
    writeFileSync(
      policy,
      JSON.stringify({
        name: 'house',
        title: 'House policy',
        requirements: [
          {
            id: 'supplier',
            level: 'MUST',
            clause: 'House rule 1',
            message: 'Every component names its supplier',
            hint: 'add supplier.name',
            appliesTo: 'components',
            check: { entity: 'supplier' },
          },
        ],
      }),
    );
    const run = await runCli(['explain', '--profile', policy, 'profile/house/supplier']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Every component names its supplier');
  });

  it.each([
    ['validate', '--trust'],
    ['validate', '--profile'],
    ['verify', '--allow-extensions'],
    ['sign', '--target'],
  ])('%s %s with no value is a usage error', async (command, flag) => {
    const run = await runCli([command, VALID, flag]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^bomwright: E_USAGE: ${flag} needs a value`));
  });
});
