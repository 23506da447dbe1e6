/**
 * The fast XML path: the model read straight from the text (no element tree unless a finding needs a place), the
 * hash value pattern compiled in an equivalent form, and the reader's bounds on hostile start tags.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { mapDocument, ModelSink } from '../../src/xml/model.js';
import { scanInto, scanXml } from '../../src/xml/scan.js';
import { cpuNow } from '../growth.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
const OFFICIAL = '([a-fA-F0-9]{32})|([a-fA-F0-9]{40})|([a-fA-F0-9]{64})|([a-fA-F0-9]{96})|([a-fA-F0-9]{128})';

function bom(components: string[], ns = NS): string {
  const serial = ns.endsWith('1.0') ? '' : ` serialNumber="${SERIAL}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<bom xmlns="${ns}"${serial} version="1">\n<components>\n${components.join('\n')}\n</components>\n</bom>\n`;
}

function readModel(text: string) {
  const sink = new ModelSink();
  expect(scanInto(text, sink)).toBeUndefined();
  return sink;
}

describe('the model read from the text', () => {
  const tricky = `<?xml version="1.0"?>
<b:bom xmlns:b="${NS}" version="7" serialNumber="${SERIAL}">
  <b:metadata><b:component type="application" bom-ref="app"><b:name>a<!-- c -->pp</b:name></b:component></b:metadata>
  <b:components>
    <b:component type="library" bom-ref="lib" x:extra="1" xmlns:x="urn:x">
      <b:name> lib &amp; <![CDATA[ <raw> ]]>&#32;</b:name>
      <x:note><b:name>not part of the model</b:name></x:note>
      <b:hashes><b:hash alg="SHA-256">  ab&#10;cd  </b:hash></b:hashes>
      <b:properties><b:property name="p">one</b:property><b:property name="p">two</b:property></b:properties>
      <b:licenses/>
      <b:__proto__>data</b:__proto__>
    </b:component>
  </b:components>
  <b:dependencies>
    <b:dependency ref="app"><b:dependency ref="lib"/><b:provides ref="x"/></b:dependency>
    <b:dependency ref="lib"/>
  </b:dependencies>
  <ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo/></ds:Signature>
</b:bom>`;

  it('is the model the element tree maps to, member for member', () => {
    const sink = readModel(tricky);
    const scanned = scanXml(tricky);
    if (!scanned.ok) throw new Error(scanned.message);
    expect(sink.document('1.6')).toStrictEqual(mapDocument(scanned.root, '1.6').document);
    expect(sink.root).toEqual({ name: 'b:bom', local: 'bom', namespace: NS, offset: tricky.indexOf('<b:bom') });
  });

  it('maps each construct as the JSON form has it', () => {
    const sink = readModel(tricky);
    const document = sink.document('1.6');
    const component = (document.components as Record<string, unknown>[])[0]!;
    expect(document.version).toBe(7);
    expect(document.metadata).toEqual({ component: { type: 'application', 'bom-ref': 'app', name: 'app' } });
    // Text, a reference, CDATA and a character reference joined (a leaf trimmed); a foreign element left out.
    expect(component.name).toBe('lib &  <raw>');
    // A hash value is an xs:token: its white space collapsed, as the XSD reads it.
    expect(component.hashes).toEqual([{ alg: 'SHA-256', content: 'ab cd' }]);
    expect(component.properties).toEqual([
      { name: 'p', value: 'one' },
      { name: 'p', value: 'two' },
    ]);
    expect(component.licenses).toEqual([]);
    expect(Object.getPrototypeOf(component)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(component, '__proto__')?.value).toBe('data');
    expect(document.dependencies).toEqual([{ ref: 'app', dependsOn: ['lib'], provides: ['x'] }, { ref: 'lib' }]);
    expect(sink.signed).toBe(true);
    expect(readModel(bom([])).signed).toBe(false);
  });

  it('a finding deep in a large document has the place, line and column a small one gives it', async () => {
    const components = Array.from(
      { length: 3000 },
      (_, i) => `<component type="library" bom-ref="c${i}"><name>c${i}</name></component>`,
    );
    const last = components.length - 1;
    components[last] = `<component type="library" bom-ref="c0"><name>c${last}</name></component>`;
    components[1500] = `<component type="libary" bom-ref="c1500"><name>c1500</name></component>`;
    const text = bom(components);
    const result = await validate(text);
    const lines = text.split('\n');
    const lineOf = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;
    expect(result.diagnostics.map((d) => [d.ruleId, d.pointer, d.line, d.column])).toEqual([
      ['schema/enum', '/bom/components/component[1501]/@type', lineOf('libary'), 12],
      [
        'ref/duplicate-bom-ref',
        `/bom/components/component[${last + 1}]/@bom-ref`,
        lineOf(`<name>c${last}</name>`),
        lines[lineOf(`<name>c${last}</name>`) - 1]!.indexOf('bom-ref') + 1,
      ],
    ]);
    expect(result.diagnostics[1]!.message).toBe(
      'bom-ref "c0" is already defined by /bom/components/component[1]/@bom-ref',
    );
  });
});

describe('the hash value pattern', () => {
  const hex = (n: number, at = -1) => Array.from({ length: n }, (_, i) => (i === at ? 'g' : 'aF0'[i % 3])).join('');
  const values: string[] = [];
  for (const n of [0, 1, 31, 32, 33, 39, 40, 41, 63, 64, 65, 95, 96, 97, 127, 128, 129, 160]) values.push(hex(n));
  for (const n of [32, 40, 64, 96, 128]) values.push(hex(n, 0), hex(n, n - 1), `  ${hex(n)}  `, hex(n - 8) + hex(8));
  const official = new RegExp(`^(?:${OFFICIAL})$`);

  it('accepts exactly the official language: 32, 40, 64, 96 or 128 hex digits', async () => {
    const text = bom(
      values.map(
        (v, i) =>
          `<component type="library" bom-ref="c${i}"><name>c</name><hashes><hash alg="SHA-256">${v}</hash></hashes></component>`,
      ),
    );
    const result = await validate(text);
    const failing = result.diagnostics.map((d) => d.pointer);
    const expected = values.flatMap((v, i) =>
      official.test(v.trim()) ? [] : [`/bom/components/component[${i + 1}]/hashes/hash`],
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(failing).toEqual(expected);
    expect(new Set(result.diagnostics.map((d) => d.ruleId))).toEqual(new Set(['schema/pattern']));
    expect(result.diagnostics[0]!.message).toBe(
      `[facet 'pattern'] The value "" is not accepted by the pattern '${OFFICIAL}'`,
    );
  });

  it('is the official one in every version', async () => {
    for (const v of ['1.0', '1.3', '1.7']) {
      const version = v === '1.0' || v === '1.3' ? '<version>1</version>' : '';
      const modified = v === '1.0' ? '<modified>false</modified>' : '';
      const text = bom(
        [
          `<component type="library"><name>c</name>${version}<hashes><hash alg="SHA-256">${hex(33)}</hash></hashes>${modified}</component>`,
        ],
        `http://cyclonedx.org/schema/bom/${v}`,
      );
      const result = await validate(text);
      expect(result.diagnostics.map((d) => d.message)).toEqual([
        `[facet 'pattern'] The value "${hex(33)}" is not accepted by the pattern '${OFFICIAL}'`,
      ]);
    }
  });
});

describe('hostile start tags', () => {
  const attributes = (n: number) => Array.from({ length: n }, (_, i) => `a${i}="v"`).join(' ');
  /** The best of several rounds of each text, measured in turn, so that a busy machine slows both alike. */
  const costs = (texts: readonly string[]) => {
    const best = texts.map(() => Infinity);
    for (let k = 0; k < 5; k++)
      texts.forEach((text, i) => {
        const start = cpuNow();
        scanXml(text);
        best[i] = Math.min(best[i]!, cpuNow() - start);
      });
    return best;
  };

  it('thousands of attributes are checked for repeats in linear time', () => {
    // 32,000 attributes on one tag against the same 32,000 spread over 2,000 tags of 16: the same text to read and
    // the same attributes to keep, so only checking every pair (half a billion comparisons) could tell them apart.
    const one = `<bom xmlns="${NS}" ${attributes(32_000)}/>`;
    const spread = `<bom xmlns="${NS}">${`<c ${attributes(16)}/>`.repeat(2000)}</bom>`;
    const [onTag, onTags] = costs([one, spread]) as [number, number];
    // Linear: about 1 (up to 9 seen on a loaded machine, under the mutation run); pair by pair: about 1,000.
    expect(onTag / Math.max(onTags, 0.5)).toBeLessThan(50);
  });

  it('a repeated attribute is found among many, and among few', () => {
    for (const n of [3, 15, 16, 17, 40]) {
      const text = `<bom a0="x" ${Array.from({ length: n }, (_, i) => `b${i}="v"`).join(' ')} a0="y"/>`;
      const scanned = scanXml(text);
      expect(scanned).toMatchObject({ ok: false, kind: 'syntax', message: 'Attribute a0 is repeated' });
      expect(scanned.ok ? -1 : scanned.offset).toBe(text.lastIndexOf('a0='));
    }
    const distinct = `<bom ${Array.from({ length: 40 }, (_, i) => `b${i}="v"`).join(' ')}/>`;
    expect(scanXml(distinct).ok).toBe(true);
  });

  it('a huge attribute is refused over --max-size, at the byte, and read whole at it', async () => {
    const value = 'r'.repeat(1 << 20);
    const text = bom([`<component type="library" bom-ref="${value}"><name>c</name></component>`]);
    const bytes = new TextEncoder().encode(text);
    const over = await validate(bytes, { maxSize: bytes.length - 1 });
    expect(over.diagnostics.map((d) => d.ruleId)).toEqual(['read/too-large']);
    const at = await validate(bytes, { maxSize: bytes.length });
    expect(at.valid).toBe(true);
  });
});

describe('element ends', () => {
  it('each element ends just past its end tag or its />, whatever stands inside or between', () => {
    const text = '<a xmlns="urn:a"><b/><c x="/>">t<!-- </c> --><![CDATA[</c>]]><d></d ></c><?p </a>?>\n<e\n/></a >';
    const scanned = scanXml(text);
    expect(scanned.ok).toBe(true);
    if (!scanned.ok) return;
    const ends = (node: typeof scanned.root): [string, string][] => [
      [node.local, text.slice(node.offset, node.end)],
      ...node.children.flatMap(ends),
    ];
    expect(ends(scanned.root)).toEqual([
      ['a', text],
      ['b', '<b/>'],
      ['c', '<c x="/>">t<!-- </c> --><![CDATA[</c>]]><d></d ></c>'],
      ['d', '<d></d >'],
      ['e', '<e\n/>'],
    ]);
  });
});
