import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { validate } from '../../src/index.js';
import { SAMPLES, tempDir } from '../helpers.js';
import { fuzzParameters } from './settings.js';
import { writeFileSync } from 'node:fs';

/** Every sample that is JSON at all (some are deliberately not). */
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith('.json'))
  .flatMap((f) => {
    try {
      return [JSON.parse(readFileSync(path.join(SAMPLES, f), 'utf8')) as unknown];
    } catch {
      return [];
    }
  });

/** Values that tend to break things: odd numbers, huge and hostile strings, prototype names, deep nesting. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1e308,
    -1e-308,
    2 ** 53,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    0.1,
    '',
    '\u0000',
    '\ud800',
    '\u001b[2J',
    '__proto__',
    'constructor',
    'x'.repeat(100_000),
    null,
    true,
    [],
    {},
  ),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 1, max: 600 }).map((depth) => {
    let value: unknown = 'deep';
    for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
    return value;
  }),
);

type Mutation = { path: number[]; kind: 'swap' | 'delete' | 'duplicate' | 'proto'; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.record({
  path: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
  kind: fc.constantFrom('swap', 'delete', 'duplicate', 'proto'),
  value: nasty,
});

/** Applies a structural mutation at a path of indexes into members/items (wrapping around), on a copy. */
function mutate(document: unknown, m: Mutation): unknown {
  const copy = structuredClone(document);
  let node: unknown = copy;
  for (let depth = 0; depth < m.path.length; depth++) {
    if (node === null || typeof node !== 'object') return copy;
    const keys = Object.keys(node);
    if (keys.length === 0) return copy;
    const key = keys[m.path[depth]! % keys.length]!;
    const record = node as Record<string, unknown>;
    const last = depth === m.path.length - 1 || record[key] === null || typeof record[key] !== 'object';
    if (!last) {
      node = record[key];
      continue;
    }
    if (m.kind === 'swap') record[key] = m.value;
    else if (m.kind === 'delete') {
      if (Array.isArray(node)) node.splice(Number(key), 1);
      else delete record[key];
    } else if (m.kind === 'duplicate') {
      if (Array.isArray(node)) node.push(structuredClone(record[key]));
      else record[`${key}`] = structuredClone(record[key]);
    } else if (!Array.isArray(node)) {
      Object.defineProperty(record, '__proto__', {
        value: m.value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
      Object.defineProperty(record, 'constructor', {
        value: m.value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    return copy;
  }
  return copy;
}

function expectWellFormed(result: Awaited<ReturnType<typeof validate>>): void {
  expect(result.errors + result.warnings).toBe(result.diagnostics.length);
  expect(result.valid).toBe(result.errors === 0);
  for (const d of result.diagnostics) {
    expect(typeof d.ruleId).toBe('string');
    expect(typeof d.message).toBe('string');
    expect(d.message).not.toContain('\n');
  }
}

describe('fuzzing the parser and validator', () => {
  it('never throws on random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        expectWellFormed(await validate(bytes));
      }),
      fuzzParameters(200),
    );
  });

  it('never throws on random JSON, as text and as a value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        expectWellFormed(await validate(JSON.stringify(value)));
        expectWellFormed(await validate(value as object));
      }),
      fuzzParameters(200),
    );
  });

  it('never throws on structural mutations of every sample', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...samples),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        async (sample, ms) => {
          const mutated = ms.reduce(mutate, sample);
          expectWellFormed(await validate(JSON.stringify(mutated)));
        },
      ),
      fuzzParameters(300),
    );
  });

  it('never throws on text mutations: truncation, duplicated members, injected bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...samples.map((s) => JSON.stringify(s, null, 2))),
        fc.nat(),
        fc.constantFrom('truncate', 'duplicate', 'inject'),
        fc.string({ maxLength: 20 }),
        async (text, at, kind, piece) => {
          const cut = at % (text.length + 1);
          const mutated =
            kind === 'truncate'
              ? text.slice(0, cut)
              : kind === 'duplicate'
                ? text.replace(/"(\w+)": /, (m) => `${m}1, ${m}`)
                : text.slice(0, cut) + piece + text.slice(cut);
          expectWellFormed(await validate(mutated));
        },
      ),
      fuzzParameters(300),
    );
  });

  it('the CLI exits 0, 1 or 2, with exactly one line on 2, whatever the document', async () => {
    const dir = tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...samples),
        mutation,
        fc.constantFrom('validate', 'verify', 'normalize --check'),
        async (sample, m, command) => {
          const file = path.join(dir, 'doc.json');
          writeFileSync(file, JSON.stringify(mutate(sample, m)));
          let stderr = '';
          const code = await main({
            argv: [...command.split(' '), file],
            cwd: dir,
            stdout: () => undefined,
            stderr: (t) => (stderr += t),
          });
          expect([0, 1, 2]).toContain(code);
          if (code === 2)
            expect(
              stderr
                .trim()
                .split('\n')
                .filter((l) => !l.startsWith('Run "bomwright --help"')),
            ).toHaveLength(1);
          expect(stderr).not.toMatch(/\n\s+at /);
        },
      ),
      fuzzParameters(60),
    );
  });
});
