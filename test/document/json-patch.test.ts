/**
 * JSON written back in its own layout (src/document/json-patch.ts), through the library's reading and writing: only
 * the members that changed are written, added and removed ones in the style of their container, every other byte
 * kept; where no patch applies the document is written afresh, and what is written always reads as the model.
 */
import { describe, expect, it } from 'vitest';
import { readDocument, type BomDocument } from '../../src/index.js';
import { expectLinear } from '../growth.js';
import { lineDiff } from '../line-diff.js';

function read(text: string): BomDocument {
  const result = readDocument(text);
  if (!result.ok) throw new Error(`unreadable: ${JSON.stringify(result.diagnostics)}`);
  return result.document;
}

type Model = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Writes `text` back after `change` edits a copy of its model; checks that the result reads as that model. */
function edit(text: string, change: (model: Model) => Model | void): string {
  const document = read(text);
  const copy = structuredClone(document.model) as Model;
  const model = change(copy) ?? copy;
  const written = document.write(model);
  expect(JSON.parse(written)).toEqual(model);
  expect(Object.keys(JSON.parse(written) as Model)).toEqual(Object.keys(model));
  return written;
}

const PRETTIER = `{
  "bomFormat": "CycloneDX",
  "specVersion": "1.6",
  "version": 1.0,
  "metadata": { "timestamp": "2024-01-01T00:00:00Z" },
  "components": [
    {
      "name": "caf\\u00e9",
      "hashes": [{ "alg": "MD5", "content": "d599e35d8c1072a97607cea7921b4272" }],
      "licenses": []
    },
    { "name": "b", "version": "2.0" }
  ]
}
`;

describe('a changed value is written where it stands', () => {
  it('one line changes; number spellings, escapes and one-line containers elsewhere are kept', () => {
    const written = edit(PRETTIER, (m) => {
      m.version = 2;
    });
    expect(lineDiff(PRETTIER, written)).toEqual(['-   "version": 1.0,', '+   "version": 2,']);
  });

  it('a value inside a one-line object changes on its line only', () => {
    const written = edit(PRETTIER, (m) => {
      m.metadata.timestamp = '2025-01-01T00:00:00Z';
      m.components[1].version = '2.1';
    });
    expect(lineDiff(PRETTIER, written)).toEqual([
      '-   "metadata": { "timestamp": "2024-01-01T00:00:00Z" },',
      '+   "metadata": { "timestamp": "2025-01-01T00:00:00Z" },',
      '-     { "name": "b", "version": "2.0" }',
      '+     { "name": "b", "version": "2.1" }',
    ]);
  });

  it('a value of another kind is written in the indentation of its place', () => {
    const written = edit(PRETTIER, (m) => {
      m.version = { n: 2 };
    });
    expect(lineDiff(PRETTIER, written)).toEqual(['-   "version": 1.0,', '+   "version": {', '+     "n": 2', '+   },']);
  });

  it('nothing changed: the text comes back byte for byte', () => {
    expect(edit(PRETTIER, () => undefined)).toBe(PRETTIER);
  });
});

describe('members added', () => {
  it('after the last member of a multi-line object: a comma on the line before, then its lines', () => {
    const written = edit(PRETTIER, (m) => {
      m.signature = { algorithm: 'ES256', value: 'x' };
    });
    expect(lineDiff(PRETTIER, written)).toEqual([
      '-   ]',
      '+   ],',
      '+   "signature": {',
      '+     "algorithm": "ES256",',
      '+     "value": "x"',
      '+   }',
    ]);
  });

  it('between members, where the new model puts it', () => {
    const written = edit(PRETTIER, (m) => ({
      bomFormat: m.bomFormat,
      specVersion: m.specVersion,
      serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
      version: m.version,
      metadata: m.metadata,
      components: m.components,
    }));
    expect(lineDiff(PRETTIER, written)).toEqual([
      '+   "serialNumber": "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79",',
    ]);
  });

  it('before the first member', () => {
    const written = edit(PRETTIER, (m) => ({ $schema: 'x', ...m }));
    expect(lineDiff(PRETTIER, written)).toEqual(['+   "$schema": "x",']);
  });

  it('into a one-line object: on its line, with its separators', () => {
    const written = edit(PRETTIER, (m) => {
      m.metadata.lifecycles = [{ phase: 'build' }];
    });
    expect(lineDiff(PRETTIER, written)).toEqual([
      '-   "metadata": { "timestamp": "2024-01-01T00:00:00Z" },',
      '+   "metadata": { "timestamp": "2024-01-01T00:00:00Z", "lifecycles": [{ "phase": "build" }] },',
    ]);
  });

  it('[] gets one item, indented one unit deeper than its line', () => {
    const written = edit(PRETTIER, (m) => {
      m.components[0].licenses.push({ license: { id: 'MIT' } });
    });
    expect(lineDiff(PRETTIER, written)).toEqual([
      '-       "licenses": []',
      '+       "licenses": [',
      '+         {',
      '+           "license": {',
      '+             "id": "MIT"',
      '+           }',
      '+         }',
      '+       ]',
    ]);
  });

  it('{} gets one member', () => {
    const text = '{\n  "bomFormat": "CycloneDX",\n  "metadata": {}\n}\n';
    const written = edit(text, (m) => {
      m.metadata.timestamp = 't';
    });
    expect(written).toBe('{\n  "bomFormat": "CycloneDX",\n  "metadata": {\n    "timestamp": "t"\n  }\n}\n');
  });

  it('an item appended to an array of one-line items, and one inserted between two', () => {
    const appended = edit(PRETTIER, (m) => {
      m.components.push({ name: 'c' });
    });
    expect(lineDiff(PRETTIER, appended)).toEqual([
      '-     { "name": "b", "version": "2.0" }',
      '+     { "name": "b", "version": "2.0" },',
      '+     {',
      '+       "name": "c"',
      '+     }',
    ]);
    const inserted = edit(PRETTIER, (m) => {
      m.components[0].hashes.splice(1, 0, { alg: 'SHA-1', content: 'ab' }, { alg: 'SHA-256', content: 'cd' });
    });
    expect(lineDiff(PRETTIER, inserted)).toEqual([
      '-       "hashes": [{ "alg": "MD5", "content": "d599e35d8c1072a97607cea7921b4272" }],',
      '+       "hashes": [{ "alg": "MD5", "content": "d599e35d8c1072a97607cea7921b4272" }, { "alg": "SHA-1", "content": "ab" }, { "alg": "SHA-256", "content": "cd" }],',
    ]);
  });
});

describe('members removed', () => {
  it('the last member: the comma before it goes too', () => {
    const written = edit(PRETTIER, (m) => {
      delete m.components;
    });
    expect(written.endsWith('"metadata": { "timestamp": "2024-01-01T00:00:00Z" }\n}\n')).toBe(true);
    expect(lineDiff(PRETTIER, written)!.filter((line) => line.startsWith('+'))).toEqual([
      '+   "metadata": { "timestamp": "2024-01-01T00:00:00Z" }',
    ]);
  });

  it('the first member, a middle item, and the only member (leaving {})', () => {
    const first = edit(PRETTIER, (m) => {
      delete m.bomFormat;
    });
    expect(lineDiff(PRETTIER, first)).toEqual(['-   "bomFormat": "CycloneDX",']);
    const middle = edit(PRETTIER, (m) => {
      m.components.splice(0, 1);
    });
    expect(lineDiff(PRETTIER, middle)).toEqual([
      '-     {',
      '-       "name": "caf\\u00e9",',
      '-       "hashes": [{ "alg": "MD5", "content": "d599e35d8c1072a97607cea7921b4272" }],',
      '-       "licenses": []',
      '-     },',
    ]);
    const only = edit(PRETTIER, (m) => {
      delete m.metadata.timestamp;
    });
    expect(lineDiff(PRETTIER, only)).toEqual([
      '-   "metadata": { "timestamp": "2024-01-01T00:00:00Z" },',
      '+   "metadata": {},',
    ]);
  });
});

describe('the file as written: line endings, indentation, its end, a byte-order mark', () => {
  it('CRLF: the added lines end in CRLF too', () => {
    const text = PRETTIER.replaceAll('\n', '\r\n');
    const written = edit(text, (m) => {
      m.serialNumber = 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79';
    });
    expect(written.replaceAll('\r\n', '')).not.toContain('\n');
    expect(lineDiff(text, written)).toEqual([
      '-   ]\r',
      '+   ],\r',
      '+   "serialNumber": "urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79"\r',
    ]);
  });

  it('tabs: the added lines are indented with tabs', () => {
    const text = '{\n\t"bomFormat": "CycloneDX",\n\t"metadata": {\n\t\t"timestamp": "t"\n\t}\n}';
    const written = edit(text, (m) => {
      m.metadata.tools = { components: [{ name: 'x' }] };
    });
    expect(written).toBe(
      '{\n\t"bomFormat": "CycloneDX",\n\t"metadata": {\n\t\t"timestamp": "t",\n\t\t"tools": {\n\t\t\t"components": [\n\t\t\t\t{\n\t\t\t\t\t"name": "x"\n\t\t\t\t}\n\t\t\t]\n\t\t}\n\t}\n}',
    );
  });

  it('no final newline stays without one; a final newline stays', () => {
    const bare = PRETTIER.trimEnd();
    expect(edit(bare, (m) => void (m.version = 3)).endsWith('}')).toBe(true);
    expect(edit(PRETTIER, (m) => void (m.version = 3)).endsWith('}\n')).toBe(true);
  });

  it('minified text stays on one line, new members written without spaces', () => {
    const text = JSON.stringify(JSON.parse(PRETTIER));
    const written = edit(text, (m) => {
      m.version = 2;
      m.metadata.tools = [{ name: 'x' }];
      m.components[0].licenses.push({ expression: 'MIT' });
    });
    expect(written).toBe(
      text
        .replace('"version":1', '"version":2')
        .replace('"2024-01-01T00:00:00Z"}', '"2024-01-01T00:00:00Z","tools":[{"name":"x"}]}')
        .replace('"licenses":[]', '"licenses":[{"expression":"MIT"}]'),
    );
  });

  it('a byte-order mark is not written back (RFC 8259 §8.1), every other byte is', () => {
    const written = edit(`\uFEFF${PRETTIER}`, (m) => void (m.version = 2));
    expect(written).toBe(PRETTIER.replace('"version": 1.0', '"version": 2'));
  });
});

describe('where no patch applies', () => {
  it('members kept in another order: that object is written anew, the rest kept', () => {
    const written = edit(PRETTIER, (m) => {
      const [a, b] = m.components as Model[];
      m.components = [a, { version: b!.version, name: b!.name }];
    });
    expect(lineDiff(PRETTIER, written)).toEqual([
      '-     { "name": "b", "version": "2.0" }',
      '+     {',
      '+       "version": "2.0",',
      '+       "name": "b"',
      '+     }',
    ]);
  });

  it('`fresh` writes the whole document afresh in the file’s indentation (normalize)', () => {
    const document = read(PRETTIER);
    const written = document.write(document.model, { fresh: true });
    expect(written).toBe(`${JSON.stringify(JSON.parse(PRETTIER), null, 2)}\n`);
    expect(lineDiff(PRETTIER, written)!.length).toBeGreaterThan(10);
  });

  it('a root of another kind is written afresh', () => {
    const document = read(PRETTIER);
    expect(document.write([1])).toBe('[\n  1\n]\n');
  });
});

describe('at scale', () => {
  /** A document of `size` components, each on its own lines. */
  function big(size: number): string {
    const components = Array.from({ length: size }, (_, i) => ({ name: `c${i}`, version: '1.0.0', hashes: [] }));
    return JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, components }, null, 2);
  }

  it('changing every component and appending one is linear in the text, and changes only those lines', () => {
    const text = big(500);
    const written = edit(text, (m) => {
      for (const c of m.components as Model[]) c.version = '2.0.0';
      m.components.push({ name: 'last' });
    });
    expect(lineDiff(text, written, 2000)!.length).toBe(500 * 2 + 3);
    expectLinear((size) => {
      const document = read(big(size));
      const model = structuredClone(document.model) as Model;
      for (const c of model.components as Model[]) c.version = '2.0.0';
      model.components.push({ name: 'last' });
      return () => document.write(model);
    }, 5000);
  });
});
