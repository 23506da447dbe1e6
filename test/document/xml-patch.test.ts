/**
 * XML written back in its own layout (src/document/xml-patch.ts) when members are added or removed, through the
 * library's reading and writing: a member added goes where the version's XSD orders it, indented like its
 * siblings; one removed is cut out with its line; comments, extensions and the rest of the text stay.
 */
import { describe, expect, it } from 'vitest';
import { readDocument, type BomDocument } from '../../src/index.js';
import { expectLinear } from '../growth.js';
import { lineDiff } from '../line-diff.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SERIAL = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';

/** Hand-written: a comment, three-space indentation, a one-line component, an extension element. */
const XML = `<?xml version="1.0" encoding="UTF-8"?>
<!-- made by hand -->
<bom xmlns="${NS}" xmlns:ext="urn:example" serialNumber="${SERIAL}" version="1">
   <metadata>
      <timestamp>2024-01-01T00:00:00Z</timestamp>
      <component type="application" bom-ref="app"><name>app</name></component>
   </metadata>
   <components>
      <component type="library" bom-ref="a"><name>a</name><version>1.0</version></component>
      <component type="library" bom-ref="c"><name>c</name><version>3.0</version></component>
   </components>
   <ext:note>kept</ext:note>
</bom>
`;

function read(text: string): BomDocument {
  const result = readDocument(text);
  if (!result.ok) throw new Error(`unreadable: ${JSON.stringify(result.diagnostics)}`);
  return result.document;
}

type Model = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function edit(text: string, change: (model: Model) => void, dropped: string[] = []): string {
  const document = read(text);
  const model = structuredClone(document.model) as Model;
  change(model);
  const written = document.write(model, { onDrop: (d) => dropped.push(d.pointer) });
  return written;
}

describe('members added in XSD order, indented like their siblings', () => {
  it('an element between two others: <supplier> after <timestamp>, before <component>', () => {
    const written = edit(XML, (m) => {
      m.metadata.supplier = { name: 'Acme' };
    });
    expect(lineDiff(XML, written)).toEqual([
      '+       <supplier>',
      '+          <name>Acme</name>',
      '+       </supplier>',
    ]);
    expect(read(written).model).toMatchObject({ metadata: { supplier: { name: 'Acme' } } });
  });

  it('where the XSD puts it, whatever the member order of the model; into children written on one line, inline', () => {
    const written = edit(XML, (m) => {
      m.metadata = { lifecycles: [{ phase: 'build' }], ...m.metadata };
      m.components[0].scope = 'required';
    });
    expect(lineDiff(XML, written)).toEqual([
      '+       <lifecycles>',
      '+          <lifecycle>',
      '+             <phase>build</phase>',
      '+          </lifecycle>',
      '+       </lifecycles>',
      '-       <component type="library" bom-ref="a"><name>a</name><version>1.0</version></component>',
      '+       <component type="library" bom-ref="a"><name>a</name><version>1.0</version><scope>required</scope></component>',
    ]);
  });

  it('an item inserted between two, or appended: the others untouched', () => {
    const item = (name: string) => [
      `+       <component type="library" bom-ref="${name}">`,
      `+          <name>${name}</name>`,
      '+       </component>',
    ];
    const inserted = edit(XML, (m) => {
      m.components.splice(1, 0, { type: 'library', 'bom-ref': 'b', name: 'b' });
    });
    expect(lineDiff(XML, inserted)).toEqual(item('b'));
    expect(inserted.indexOf('bom-ref="b"')).toBeLessThan(inserted.indexOf('bom-ref="c"'));
    const appended = edit(XML, (m) => {
      m.components.push({ type: 'library', 'bom-ref': 'd', name: 'd' });
    });
    expect(lineDiff(XML, appended)).toEqual(item('d'));
    // Both at once: the items between the first and the new last one are written again (c), still in place.
    const both = edit(XML, (m) => {
      m.components.splice(1, 0, { type: 'library', 'bom-ref': 'b', name: 'b' });
      m.components.push({ type: 'library', 'bom-ref': 'd', name: 'd' });
    });
    expect(both).toContain('<!-- made by hand -->');
    expect(read(both).model).toMatchObject({
      components: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }],
    });
  });

  it('into an empty element written <x/>', () => {
    const text = `<bom xmlns="${NS}" version="1">\n  <metadata/>\n</bom>\n`;
    const written = edit(text, (m) => {
      m.metadata = { timestamp: '2025-01-01T00:00:00Z' };
    });
    expect(written).toBe(
      `<bom xmlns="${NS}" version="1">\n  <metadata>\n    <timestamp>2025-01-01T00:00:00Z</timestamp>\n  </metadata>\n</bom>\n`,
    );
  });

  it('CRLF: the added lines end in CRLF', () => {
    const text = XML.replaceAll('\n', '\r\n');
    const written = edit(text, (m) => {
      m.metadata.supplier = { name: 'Acme' };
    });
    expect(written.replaceAll('\r\n', '')).not.toContain('\n');
    expect(lineDiff(text, written)).toHaveLength(3);
  });

  it('one-line XML stays on one line', () => {
    const text = `<bom xmlns="${NS}" version="1"><metadata><timestamp>2024-01-01T00:00:00Z</timestamp></metadata></bom>`;
    const written = edit(text, (m) => {
      m.metadata.supplier = { name: 'Acme' };
    });
    expect(written).toBe(text.replace('</timestamp>', '</timestamp><supplier><name>Acme</name></supplier>'));
  });

  it('a member the version cannot carry is told to onDrop once and left out; the rest is patched', () => {
    const old = `<bom xmlns="http://cyclonedx.org/schema/bom/1.0" version="1">\n  <components>\n    <component type="library"><name>a</name><version>1</version></component>\n  </components>\n</bom>\n`;
    const dropped: string[] = [];
    const written = edit(
      old,
      (m) => {
        m.version = 2;
        m.metadata = { timestamp: '2025-01-01T00:00:00Z' };
      },
      dropped,
    );
    expect(written).toBe(old.replace('version="1"', 'version="2"'));
    expect(dropped).toEqual(['/metadata']);
  });
});

describe('members removed', () => {
  it('an element with its line, an item, an attribute; comments and extensions stay', () => {
    const written = edit(XML, (m) => {
      delete m.metadata.timestamp;
      m.components.splice(0, 1);
      delete m.serialNumber;
    });
    expect(lineDiff(XML, written)).toEqual([
      `- <bom xmlns="${NS}" xmlns:ext="urn:example" serialNumber="${SERIAL}" version="1">`,
      `+ <bom xmlns="${NS}" xmlns:ext="urn:example" version="1">`,
      '-       <timestamp>2024-01-01T00:00:00Z</timestamp>',
      '-       <component type="library" bom-ref="a"><name>a</name><version>1.0</version></component>',
    ]);
    expect(written).toContain('<!-- made by hand -->');
    expect(written).toContain('<ext:note>kept</ext:note>');
  });
});

describe('where no patch applies', () => {
  it('items reordered: written afresh, reading as the model', () => {
    const document = read(XML);
    const model = structuredClone(document.model) as Model;
    model.components.reverse();
    const written = document.write(model);
    expect(written).not.toContain('<!-- made by hand -->');
    expect(read(written).model).toEqual(model);
  });
});

describe('at scale', () => {
  /** A hand-commented document of `size` components, each on one line. */
  function big(size: number): string {
    const items = Array.from(
      { length: size },
      (_, i) => `    <component type="library" bom-ref="c${i}"><name>c${i}</name></component>\n`,
    );
    return `<!-- kept -->\n<bom xmlns="${NS}" version="1">\n  <components>\n${items.join('')}  </components>\n</bom>\n`;
  }

  it('a tenth more items appended is patched in place, in time linear in the document', () => {
    const grow = (size: number) => {
      const document = read(big(size));
      const model = structuredClone(document.model) as Model;
      for (let i = 0; i < size / 10; i++) model.components.push({ type: 'library', 'bom-ref': `n${i}`, name: `n${i}` });
      return { document, model };
    };
    const { document, model } = grow(1000);
    const written = document.write(model);
    expect(written.startsWith(big(1000).replace('  </components>\n</bom>\n', ''))).toBe(true);
    expect(read(written).model).toEqual(model);
    expectLinear((size) => {
      const prepared = grow(size);
      return () => prepared.document.write(prepared.model);
    }, 2000);
  });
});
