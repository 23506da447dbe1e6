/**
 * Writing a changed model back into the XML it was read from (src/document/xml-patch.ts), through a document's
 * `write`: values changed in place where they stand, the rest of the text as it was; anything else written afresh.
 */
import { describe, expect, it } from 'vitest';
import { readDocument, type BomDocument } from '../../src/index.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';

/** A model changed freely by a test: its shape is the document's, which reading it back checks. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Model = Record<string, any>;

function read(text: string): BomDocument {
  const result = readDocument(text);
  if (!result.ok) throw new Error(`unreadable: ${JSON.stringify(result.diagnostics)}`);
  return result.document;
}

/** A document's model, copied, and changed by `change`; then written back. */
function edit(text: string, change: (model: Model) => void, readsBack = true): string {
  const document = read(text);
  const model = structuredClone(document.model) as Model;
  change(model);
  const written = document.write(model);
  // Whichever way, what is written reads as the changed model (where XML can hold it as it is).
  if (readsBack) expect(read(written).model).toEqual(model);
  return written;
}

/** Written afresh: the XSD-ordered writer's declaration, no comment kept. */
const AFRESH = '<?xml version="1.0" encoding="UTF-8"?>\n';

const bom = (body: string, attributes = 'version="1"') => `<!-- kept --><bom xmlns="${NS}" ${attributes}>${body}</bom>`;

describe('values changed in place', () => {
  it('an element left empty takes its new text; one with white space before its end tag too', () => {
    const empty = bom('<metadata><supplier><name/></supplier></metadata>');
    expect(
      edit(empty, (m) => {
        m.metadata.supplier.name = 'a<b';
      }),
    ).toBe(empty.replace('<name/>', '<name>a&lt;b</name>'));
    const spaced = bom('<metadata><supplier><name >x</name\n></supplier></metadata>');
    expect(
      edit(spaced, (m) => {
        m.metadata.supplier.name = 'y';
      }),
    ).toBe(spaced.replace('>x<', '>y<'));
  });

  it('a start tag whose attribute values hold ">" is read to its end', () => {
    const text = bom(
      '<components><component type="library" bom-ref="a>b" author=\'>\'><name>n</name></component></components>',
    );
    expect(
      edit(text, (m) => {
        m.components[0].name = 'm';
      }),
    ).toBe(text.replace('<name>n</name>', '<name>m</name>'));
  });

  it('text is escaped where it must be; a carriage return as a reference', () => {
    const text = bom('<metadata><supplier><name>x</name></supplier></metadata>');
    expect(
      edit(text, (m) => {
        m.metadata.supplier.name = 'a&b>c\rd';
      }),
    ).toBe(text.replace('<name>x</name>', '<name>a&amp;b&gt;c&#13;d</name>'));
  });

  it('an attribute keeps its quotes: in single quotes an apostrophe is escaped, a tab is a reference', () => {
    const text = bom('', "version='1' serialNumber='urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79'");
    const written = edit(text, (m) => {
      m.serialNumber = `x'"\t<&`;
    });
    expect(written).toBe(
      text.replace(
        "serialNumber='urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79'",
        "serialNumber='x&apos;\"&#9;&lt;&amp;'",
      ),
    );
    // Spaces around "=" are kept as written.
    const spaced = bom('', 'version = "1"');
    expect(
      edit(spaced, (m) => {
        m.version = 7;
      }),
    ).toBe(spaced.replace('"1"', '"7"'));
  });

  it('the same text of another kind is a change (the number 2 for the string "2"), though its text is the same', () => {
    const text = bom('<components><component type="library"><name>2</name></component></components>', 'version="2"');
    // The patched text reads the name as the string it is, not the number asked for: written afresh.
    const written = edit(
      text,
      (m) => {
        m.components[0].name = 2;
      },
      false,
    );
    expect(written.startsWith(AFRESH)).toBe(true);
    // A number where the XML has a number (the version) is patched; so is a boolean.
    const flag = bom('<services><service><name>s</name><authenticated>false</authenticated></service></services>');
    expect(
      edit(flag, (m) => {
        m.version = 2;
        m.services[0].authenticated = true;
      }),
    ).toBe(flag.replace('version="1"', 'version="2"').replace('>false<', '>true<'));
  });

  it('several values at once, patched from the end of the text so that offsets hold', () => {
    const text = bom(
      '<metadata><timestamp>2024-01-01T00:00:00Z</timestamp></metadata><components><component type="library"><name>a</name><version>1</version></component><component type="library"><name>b</name><version>2</version></component></components>',
    );
    expect(
      edit(text, (m) => {
        m.version = 10;
        m.metadata.timestamp = '2025-01-01T00:00:00Z';
        m.components[0].version = '1.1';
        m.components[1].name = 'bb';
      }),
    ).toBe(
      text
        .replace('version="1"', 'version="10"')
        .replace('2024-01-01', '2025-01-01')
        .replace('<version>1</version>', '<version>1.1</version>')
        .replace('<name>b</name>', '<name>bb</name>'),
    );
  });
});

describe('written afresh, when values alone cannot say the change', () => {
  const two = bom(
    '<components><component type="library"><name>a</name><version>1</version></component><component type="library"><name>b</name><version>1</version></component></components>',
  );

  it('an array resized, a member renamed, members reordered: patched, the rest of the text kept', () => {
    for (const change of [
      (m: Model) => m.components.pop(),
      (m: Model) => m.components.push({ type: 'library', name: 'c' }),
      (m: Model) => {
        const { name, ...rest } = m.components[0];
        m.components[0] = { ...rest, group: name };
      },
      (m: Model) => (m.components[0] = { version: '1', type: 'library', name: 'a' }),
    ])
      expect(edit(two, change).startsWith('<!-- kept -->')).toBe(true);
  });

  it('an item moved (an edited item that reads as another old item) is written afresh', () => {
    // The first item now reads exactly as the second did: it was moved, not edited.
    expect(edit(two, (m) => (m.components[0] = { ...m.components[1] })).startsWith(AFRESH)).toBe(true);
  });

  it('an edited item that reads as no old item is patched in place', () => {
    expect(
      edit(two, (m) => {
        m.components[0].name = 'c';
      }),
    ).toBe(two.replace('<name>a</name>', '<name>c</name>'));
  });

  it('a value of another shape: a record for a text, a list for a record, null, a number that JSON cannot write', () => {
    const text = bom('<metadata><supplier><name>x</name></supplier></metadata>');
    for (const value of [{ a: 1 }, ['x'], null]) {
      expect(
        edit(
          text,
          (m) => {
            m.metadata.supplier.name = value;
          },
          false,
        ).startsWith(AFRESH),
      ).toBe(true);
    }
    for (const change of [(m: Model) => (m.metadata.supplier = 'x'), (m: Model) => (m.metadata = [m.metadata])])
      expect(edit(text, change, false).startsWith(AFRESH)).toBe(true);
    const document = read(text);
    const model = structuredClone(document.model) as Model;
    model.version = Infinity;
    // Written afresh, where the version that is no number is left as the writer writes it.
    expect(document.write(model).startsWith(AFRESH)).toBe(true);
  });

  it('an element with more than text in it (a comment, CDATA), or a value whose element the map cannot find', () => {
    for (const inner of ['x<!-- c -->', '<![CDATA[x]]>']) {
      const text = bom(`<metadata><supplier><name>${inner}</name></supplier></metadata>`);
      expect(
        edit(text, (m) => {
          m.metadata.supplier.name = 'y';
        }).startsWith(AFRESH),
      ).toBe(true);
    }
    // The text stops at the end of the document: no end tag to find.
    const attribute = bom('<metadata><supplier><name>x</name></supplier></metadata>');
    expect(
      edit(attribute, (m) => {
        m.metadata.supplier.name = 'y';
        m.version = 2;
      }),
    ).toBe(attribute.replace('version="1"', 'version="2"').replace('>x<', '>y<'));
  });

  it('two members that stand at one place (a licence choice item and its licence) are not patched twice', () => {
    const text = bom(
      '<components><component type="library"><name>a</name><licenses><expression>MIT</expression></licenses></component></components>',
    );
    expect(
      edit(text, (m) => {
        m.components[0].licenses[0].expression = 'Apache-2.0';
      }),
    ).toBe(text.replace('MIT', 'Apache-2.0'));
  });

  it('a patch that would not read as the changed model is not used', () => {
    // A property's value is its text; leading white space would be kept by the patch and read back as it is, but
    // a name the XSD collapses (a token) would not read back as written.
    const text = bom(
      '<components><component type="library"><name>a</name><hashes><hash alg="SHA-256">' +
        'a'.repeat(64) +
        '</hash></hashes></component></components>',
    );
    const written = edit(
      text,
      (m) => {
        m.components[0].hashes[0].content = `  ${'b'.repeat(64)}  `;
      },
      false,
    );
    expect(written.startsWith(AFRESH)).toBe(true);
  });
});
