import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countMembers, countTree, treeAgrees } from '../../src/json/quick-scan.js';
import { MAX_DEPTH, scanJson } from '../../src/json/scan.js';
import { parseJsonText } from '../../src/json/parse.js';
import { roundedIntegerLiteral } from '../../src/json/numbers.js';
import { indexDocument } from '../../src/validate/document-index.js';
import { validate } from '../../src/validate/index.js';
import { loadGenerateBom } from '../author/fixtures.js';
import { fuzzParameters } from '../fuzz/settings.js';

/** What the quick pass says: true = certainly clean, false = the exact scan must decide. */
function quickClean(text: string): boolean {
  const members = countMembers(text);
  return members >= 0 && treeAgrees(JSON.parse(text), members);
}

/** parseJsonText without the quick pass: the exact scan always runs (a tree check that never agrees). */
function exactParse(text: string) {
  return parseJsonText(text, () => false);
}

describe('countMembers: member names in the text, or -1 for "maybe"', () => {
  it.each([
    ['{}', 0],
    ['[]', 0],
    ['{"a":1}', 1],
    ['{ "a" : 1 , "b":[{"c":"d"}] }', 3],
    ['{"a:b":"c:d","e":":"}', 2],
    ['["a", "b", {"c": "x"}]', 1],
    ['{"a\\"b": 1, "c": "\\"", "d": "\\\\"}', 3],
    ['{"a":\n\t\r "b"}', 1],
    ['"plain"', 0],
    ['{"e": "\\u00e9\\n"}', 1],
  ])('%s has %i', (text, members) => {
    expect(countMembers(text)).toBe(members);
  });

  it.each([
    ['an escaped high surrogate', '{"a": "\\ud83d"}'],
    ['an escaped low surrogate', '{"a": "\\udc00"}'],
    ['an escaped pair (the exact scan judges it)', '{"a": "\\ud83d\\ude00"}'],
    ['an escaped surrogate in a name', '{"\\ud800": 1}'],
    ['a rounded integer member', '{"a": 1.0000000000000001}'],
    ['a rounded integer by exponent', '{"a": 1e-400}'],
    ['an unterminated string', '{"a": "b'],
  ])('says maybe for %s', (_, text) => {
    expect(countMembers(text)).toBe(-1);
  });

  it.each([
    ['a surrogate boundary below', '{"a": "\\ud7ff"}'],
    ['a surrogate boundary above', '{"a": "\\ue000"}'],
    ['an exact fraction', '{"a": 1.5}'],
    ['an integer written with a fraction', '{"a": 1.0}'],
    ['an exponent that stays fractional', '{"a": 1e-5}'],
  ])('counts through %s', (_, text) => {
    expect(countMembers(text)).toBe(1);
  });

  it('never throws or loops on malformed text', () => {
    for (const text of ['"', '{"a', '{"a\\', '{"a": "\\u12', '}}]]', '{"a":', '{"a": -', '\\"x"', '"\\']) {
      expect(() => countMembers(text)).not.toThrow();
    }
  });
});

describe('treeAgrees: the parsed tree against the text count', () => {
  it('agrees exactly when no member was lost to a duplicate', () => {
    expect(treeAgrees(JSON.parse('{"a":1,"b":{"c":2}}'), 3)).toBe(true);
    expect(treeAgrees(JSON.parse('{"a":1,"b":{"c":2}}'), 4)).toBe(false);
    expect(treeAgrees(JSON.parse('{"a":1,"a":2}'), countMembers('{"a":1,"a":2}'))).toBe(false);
    expect(treeAgrees(JSON.parse('{"__proto__":1,"a":2}'), 2)).toBe(true);
  });

  it('refuses an integer directly inside an array (the text pass does not read it), not a fraction', () => {
    expect(countTree([1.5, 'x', null, true], 1)).toBe(0);
    expect(countTree([1.5, 2], 1)).toBe(-1);
    expect(countTree({ a: [0] }, 1)).toBe(-1);
    expect(countTree({ a: 0 }, 1)).toBe(1);
  });

  it('refuses nesting beyond MAX_DEPTH, on both sides of the limit', () => {
    const nest = (levels: number) => JSON.parse('['.repeat(levels) + ']'.repeat(levels)) as unknown;
    expect(countTree(nest(MAX_DEPTH), 1)).toBe(0);
    expect(countTree(nest(MAX_DEPTH + 1), 1)).toBe(-1);
  });

  it('refuses a tree whose prototype chain adds enumerable members', () => {
    const polluted = Object.create({ inherited: 1 }) as Record<string, unknown>;
    polluted.own = 1;
    expect(countTree(polluted, 1)).toBe(-1);
  });
});

describe('the quick pass never hides what the exact scan finds', () => {
  const mutations = fc.constantFrom(
    (text: string) => text,
    // A member repeated (a duplicate in the object it sits in).
    (text: string) => text.replace(/\{"([^"\\]*)":([^,{}[\]]*),/, '{"$1":$2,"$1":$2,'),
    // A name spelled with an escape that equals another name.
    (text: string) => text.replace(/\{"a":/, '{"\\u0061":0,"a":'),
    (text: string) => text.replace(/"([^"\\]*)"/, '"$1\\ud800"'),
    (text: string) => text.replace(/"([^"\\]*)"/, '"$1\\ud83d\\ude00"'),
    (text: string) => text.replace(/:(-?\d+)/, ':$1.0000000000000001'),
    (text: string) => text.replace(/\[(-?\d+)/, '[$1e-400'),
    (text: string) => `[${'['.repeat(MAX_DEPTH - 1)}${text}${']'.repeat(MAX_DEPTH - 1)}]`,
    (text: string) => `[${'['.repeat(MAX_DEPTH - 2)}${text}${']'.repeat(MAX_DEPTH - 2)}]`,
  );

  it('says clean only where the exact scan finds nothing, and parses to the same diagnostics', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), mutations, (value, mutate) => {
        const text = mutate(JSON.stringify({ a: 1, value }));
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return;
        }
        const members = countMembers(text);
        if (members >= 0 && treeAgrees(parsed, members)) expect(scanJson(text)).toEqual([]);
        expect(parseJsonText(text)).toEqual(exactParse(text));
      }),
      fuzzParameters(300),
    );
  });

  it('says clean for every supported sample that the exact scan passes', async () => {
    const generateBom = await loadGenerateBom();
    for (const specVersion of ['1.2', '1.3', '1.4', '1.5', '1.6', '1.7']) {
      const text = JSON.stringify(generateBom(50, { specVersion, rich: true }), null, 2);
      expect(scanJson(text)).toEqual([]);
      expect(quickClean(text)).toBe(true);
    }
  });
});

describe('the index walk counts exactly as treeAgrees', () => {
  it('on random trees, signatures included', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const withSignature = { 'bom-ref': 'x', value, signature: { value, algorithm: 'ES256' } };
        for (const tree of [value, withSignature]) expect(indexDocument(tree).members).toBe(countTree(tree, 1));
      }),
      fuzzParameters(300),
    );
  });

  it('on both sides of the depth limit', () => {
    const nest = (levels: number) => JSON.parse('{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1)) as object;
    expect(indexDocument(nest(MAX_DEPTH)).members).toBe(MAX_DEPTH - 1);
    expect(indexDocument(nest(MAX_DEPTH + 1)).members).toBe(-1);
  });
});

describe('findings in a large document, at its start, middle and end', () => {
  const size = 2000;
  const places = ['start', 'middle', 'end'] as const;
  const at = (place: (typeof places)[number]) => (place === 'start' ? 0 : place === 'middle' ? size / 2 : size - 1);

  async function largeText(): Promise<{ text: string; lines: string[] }> {
    const generateBom = await loadGenerateBom();
    const text = JSON.stringify(generateBom(size), null, 2);
    return { text, lines: text.split('\n') };
  }

  /** The text with `edit` applied to the `n`th occurrence of `"purl": "`. */
  function editPurl(text: string, n: number, edit: (line: string) => string): string {
    let index = -1;
    for (let k = 0; k <= n; k++) index = text.indexOf('"purl": "', index + 1);
    const end = text.indexOf('\n', index);
    return text.slice(0, index) + edit(text.slice(index, end)) + text.slice(end);
  }

  it.each(places)('a duplicate member name at the %s', async (place) => {
    const { text } = await largeText();
    const edited = editPurl(text, at(place), (line) => `${line.replace(/,$/, '')}, "purl": "pkg:npm/x@1",`);
    const parsed = parseJsonText(edited);
    expect(parsed).toEqual(exactParse(edited));
    expect(parsed.diagnostics.map((d) => [d.ruleId, d.pointer])).toEqual([
      ['json/duplicate-key', `/components/${at(place)}/purl`],
    ]);
    const result = await validate(edited);
    const duplicate = result.diagnostics.find((d) => d.ruleId === 'json/duplicate-key');
    expect(duplicate).toEqual(parsed.diagnostics[0]);
  });

  it.each(places)('a lone surrogate escape at the %s', async (place) => {
    const { text } = await largeText();
    const edited = editPurl(text, at(place), (line) => line.replace('"purl": "', '"purl": "\\udfff'));
    const parsed = parseJsonText(edited);
    expect(parsed).toEqual(exactParse(edited));
    expect(parsed.diagnostics.map((d) => [d.ruleId, d.pointer])).toEqual([
      ['json/lone-surrogate', `/components/${at(place)}/purl`],
    ]);
  });

  it.each(places)('nesting too deep at the %s', async (place) => {
    const { text } = await largeText();
    const deep = '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH);
    const edited = editPurl(text, at(place), (line) => `${line} "deep": ${deep},`);
    const parsed = parseJsonText(edited);
    expect(parsed).toEqual(exactParse(edited));
    expect(parsed.value).toBeUndefined();
    expect(parsed.diagnostics.map((d) => d.ruleId)).toEqual(['json/too-deep']);
    const result = await validate(edited);
    expect(result.diagnostics.map((d) => d.ruleId)).toEqual(['json/too-deep']);
  });

  it.each(places)('rounded integers at the %s are marked on the value', async (place) => {
    const { text } = await largeText();
    const edited = editPurl(
      text,
      at(place),
      (line) => `${line} "rounded": [1.0000000000000001], "member": 2.00000000000000001,`,
    );
    const parsed = parseJsonText(edited);
    const component = (parsed.value as { components: Record<string, unknown>[] }).components[at(place)]!;
    expect(roundedIntegerLiteral(component.rounded, 0)).toBe('1.0000000000000001');
    expect(roundedIntegerLiteral(component, 'member')).toBe('2.00000000000000001');
  });

  it('a rounded integer version is judged on its text', async () => {
    const { text } = await largeText();
    const result = await validate(text.replace('"version": 1,', '"version": 1.0000000000000001,'));
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.message])).toContainEqual([
      'bom/version',
      '/version',
      'version must be a whole number from 1 to 2^53 - 1 (1.0000000000000001 has a fractional part; it only reads as 1 once rounded)',
    ]);
  });

  it('a clean large document takes the quick path and validates', async () => {
    const { text } = await largeText();
    expect(quickClean(text)).toBe(true);
    expect((await validate(text)).valid).toBe(true);
  });
});
