/**
 * The mapping reader (src/xml/model.ts) on what the twin fixtures do not show: XML's spellings of booleans and
 * numbers, values JSON cannot hold as numbers, elements the XSD does not declare (an invalid document, which the XSD
 * check reports, is still read by its shape), extensions and signatures outside the model, and the way back from
 * a pointer to its element or attribute.
 */
import { describe, expect, it } from 'vitest';
import { readDocument, type BomDocument } from '../../src/index.js';
import { mapDocument } from '../../src/xml/model.js';
import { scanXml } from '../../src/xml/scan.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';

function read(text: string): BomDocument {
  const result = readDocument(text);
  if (!result.ok) throw new Error(`unreadable: ${JSON.stringify(result.diagnostics)}`);
  return result.document;
}

const bom = (body: string, attributes = '') => `<bom xmlns="${NS}"${attributes}>${body}</bom>`;
const model = (body: string, attributes = '') => read(bom(body, attributes)).model as Record<string, unknown>;
const service = (inner: string) =>
  (model(`<services><service><name>s</name>${inner}</service></services>`).services as Record<string, unknown>[])[0]!;
const rating = (score: string) =>
  (
    (
      model(
        `<vulnerabilities><vulnerability><ratings><rating><score>${score}</score></rating></ratings></vulnerability></vulnerabilities>`,
      ).vulnerabilities as Record<string, unknown>[]
    )[0]!.ratings as Record<string, unknown>[]
  )[0]!.score;

describe('scalars as JSON has them', () => {
  it("XML's booleans: true, false, 1 and 0, around white space; anything else stays text", () => {
    expect(service('<authenticated>true</authenticated>').authenticated).toBe(true);
    expect(service('<authenticated> 1 </authenticated>').authenticated).toBe(true);
    expect(service('<authenticated>false</authenticated>').authenticated).toBe(false);
    expect(service('<authenticated>0</authenticated>').authenticated).toBe(false);
    expect(service('<authenticated>yes</authenticated>').authenticated).toBe('yes');
    expect(service('<authenticated>TRUE</authenticated>').authenticated).toBe('TRUE');
  });

  it('integers with a sign and around white space; past what JSON holds exactly, or not an integer, text', () => {
    expect(model('', ' version="+7"').version).toBe(7);
    expect(model('', ' version="-3"').version).toBe(-3);
    expect(model('', ' version=" 12 "').version).toBe(12);
    expect(model('', ' version="9007199254740991"').version).toBe(9007199254740991);
    expect(model('', ' version="9007199254740992"').version).toBe('9007199254740992');
    expect(model('', ' version="1.5"').version).toBe('1.5');
    expect(model('', ' version="1e3"').version).toBe('1e3');
    expect(model('', ' version="x1"').version).toBe('x1');
    expect(model('', ' version="1x"').version).toBe('1x');
    expect(model('', ' version=""').version).toBe('');
  });

  it('numbers in every decimal spelling; past what JSON holds, or not a number, text', () => {
    expect(rating('9.5')).toBe(9.5);
    expect(rating(' 10 ')).toBe(10);
    expect(rating('+1.')).toBe(1);
    expect(rating('-.5')).toBe(-0.5);
    expect(rating('2E2')).toBe(200);
    expect(rating('2e-1')).toBe(0.2);
    expect(rating('1e999')).toBe('1e999');
    expect(rating('NaN')).toBe('NaN');
    expect(rating('INF')).toBe('INF');
    expect(rating('.')).toBe('.');
    expect(rating('1.2.3')).toBe('1.2.3');
    expect(rating('x1')).toBe('x1');
    expect(rating('1x')).toBe('1x');
  });

  it('an element of simple type trimmed; simple content kept as written, or collapsed where its type is a token', () => {
    const component = (inner: string) =>
      (
        model(`<components><component type="library">${inner}</component></components>`).components as Record<
          string,
          unknown
        >[]
      )[0]!;
    expect(component('<name>  a  b </name>').name).toBe('a  b');
    expect(model('<properties><property name="p">  v  w </property></properties>').properties).toEqual([
      { name: 'p', value: '  v  w ' },
    ]);
    const hash = 'a'.repeat(64);
    expect(component(`<name>n</name><hashes><hash alg="SHA-256">\n  ${hash}\t\n</hash></hashes>`).hashes).toEqual([
      { alg: 'SHA-256', content: hash },
    ]);
  });
});

describe('elements the XSD does not declare', () => {
  const component = (inner: string) =>
    (
      model(`<components><component type="library"><name>n</name>${inner}</component></components>`)
        .components as Record<string, unknown>[]
    )[0]!;

  it('are read by their shape: text, a record of attributes and children, a list when all children share a name', () => {
    expect(component('<colour> red </colour>').colour).toBe('red');
    expect(component('<colour shade="dark">red</colour>').colour).toEqual({ shade: 'dark', content: 'red' });
    expect(component('<colour><a>1</a><b>2</b></colour>').colour).toEqual({ a: '1', b: '2' });
    expect(component('<colour><a>1</a><a>2</a></colour>').colour).toEqual({ a: ['1', '2'] });
    expect(component('<colour/><colour>x</colour>').colour).toEqual(['', 'x']);
    expect(component('<colour><a>1</a><a>2</a><a>3</a></colour>').colour).toEqual({ a: ['1', '2', '3'] });
    // An undeclared property-like element keeps its text as a value.
    expect(component('<property>v<x/></property>').property).toEqual({ x: '' });
  });

  it('a member named __proto__ is data, as JSON.parse makes it', () => {
    const read = component('<__proto__>x</__proto__>');
    expect(Object.keys(read)).toContain('__proto__');
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });
});

describe('outside the model', () => {
  it('elements and attributes of other namespaces (extensions, signatures, xsi) are not read', () => {
    const read = model(
      `<components><component type="library" xmlns:x="urn:x" x:flag="1"><name>n</name><x:extra><name>no</name></x:extra></component></components>` +
        `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo/></Signature>`,
      ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="a b" version="1"`,
    );
    expect(read).toEqual({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      version: 1,
      components: [{ type: 'library', name: 'n' }],
    });
  });

  it('a root that is not a CycloneDX <bom> is read by its shape alone', () => {
    const scanned = scanXml('<other xmlns="urn:o" a="1"><b>2</b><c><d>3</d></c></other>');
    if (!scanned.ok) throw new Error(scanned.message);
    const mapped = mapDocument(scanned.root, '1.6');
    expect(mapped.document).toEqual({ bomFormat: 'CycloneDX', specVersion: '1.6', a: '1', b: '2', c: { d: '3' } });
    expect(mapped.locate('/c/d')).toMatchObject({ path: '/other/c/d' });
    expect(mapped.locate('/a')).toMatchObject({ path: '/other/@a' });
  });
});

describe('the way back from a pointer', () => {
  const text = bom(
    `<metadata><tools><tool><name>t</name></tool><tool><name>u</name></tool></tools></metadata>` +
      `<components><component type="library" bom-ref="a"><name>a</name><licenses><license><id>MIT</id></license><expression>MIT OR X</expression></licenses>` +
      `<hashes><hash alg="SHA-256">${'a'.repeat(64)}</hash></hashes></component></components>` +
      `<dependencies><dependency ref="a"><dependency ref="b"/><dependency ref="c"/></dependency></dependencies>` +
      `<properties><property name="p">v</property></properties>`,
    ' version="1"',
  );
  const document = read(text);
  const path = (pointer: string) => document.locate(pointer)?.path;

  it('follows lists, wrapped and inline licence items, hashes, nested dependency refs and attributes', () => {
    expect(path('/metadata/tools/1/name')).toBe('/bom/metadata/tools/tool[2]/name');
    expect(path('/components/0/licenses/0/license/id')).toBe('/bom/components/component/licenses/license/id');
    expect(path('/components/0/licenses/0/license')).toBe('/bom/components/component/licenses/license');
    expect(path('/components/0/licenses/1/expression')).toBe('/bom/components/component/licenses/expression');
    expect(path('/components/0/hashes/0/alg')).toBe('/bom/components/component/hashes/hash/@alg');
    expect(path('/components/0/hashes/0/content')).toBe('/bom/components/component/hashes/hash');
    expect(path('/components/0/bom-ref')).toBe('/bom/components/component/@bom-ref');
    expect(path('/dependencies/0/ref')).toBe('/bom/dependencies/dependency/@ref');
    expect(path('/dependencies/0/dependsOn/1')).toBe('/bom/dependencies/dependency/dependency[2]/@ref');
    expect(path('/properties/0/value')).toBe('/bom/properties/property');
    expect(path('/version')).toBe('/bom/@version');
    expect(path('')).toBe('/bom');
    expect(path('/specVersion')).toBe('/bom');
  });

  it('a pointer past an attribute, an index that is no index or past the end, leads nowhere', () => {
    expect(path('/version/x')).toBeUndefined();
    expect(path('/components/0/bom-ref/x')).toBeUndefined();
    expect(path('/components/01')).toBeUndefined();
    expect(path('/components/-1')).toBeUndefined();
    expect(path('/components/1')).toBeUndefined();
    expect(path('/components/x')).toBeUndefined();
    // A member with no element of its own is the element that holds it.
    expect(path('/components/0/nothing')).toBe('/bom/components/component');
  });

  it('pointer escapes: ~1 for "/", ~0 for "~"', () => {
    const odd = read(bom('<components><component type="library"><name>n</name><a_x>1</a_x></component></components>'));
    expect(odd.locate('/components/0/a_x')?.path).toBe('/bom/components/component/a_x');
    expect(odd.locate('/components/0/a~1x')?.path).toBe('/bom/components/component');
    expect(odd.locate('/components/0/a~0x')?.path).toBe('/bom/components/component');
  });
});
