/**
 * Hostile XML: no external entity is resolved, nothing is read or fetched because a document asks, entity
 * expansion cannot happen (a DOCTYPE is refused before parsing), depth and size are bounded.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validate, type ValidationResult } from '../../src/index.js';
import { runCli, tempDirs } from '../helpers.js';

const NS = 'http://cyclonedx.org/schema/bom/1.6';
const SECRET = 'TOP-SECRET-7f3a9c';
const newDir = tempDirs('bomwright-xml-hostile-');
const ids = (r: ValidationResult) => r.diagnostics.map((d) => d.ruleId);

let server: Server;
let requests = 0;
let base = '';
beforeAll(async () => {
  server = createServer((_request, response) => {
    requests++;
    response.end(`<!ENTITY leak "${SECRET}">`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function secretFile(): string {
  const file = path.join(newDir(), 'secret.txt');
  writeFileSync(file, SECRET);
  return file;
}

const DOCTYPE_MESSAGE = 'The document has a DOCTYPE; bomwright reads CycloneDX XML without DTDs or entity declarations';

describe('hostile XML', () => {
  it('XXE: an external entity naming a local file is refused, and the file never shows', async () => {
    const text = `<?xml version="1.0"?>\n<!DOCTYPE bom [<!ENTITY x SYSTEM "file://${secretFile()}">]>\n<bom xmlns="${NS}" version="1"><components><component type="library"><name>&x;</name></component></components></bom>`;
    const result = await validate(text);
    expect(result.diagnostics).toEqual([
      { ruleId: 'xml/doctype', severity: 'error', message: DOCTYPE_MESSAGE, pointer: '', line: 2, column: 1 },
    ]);
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it('XXE over the network: an external DTD and a parameter entity are never fetched', async () => {
    for (const doctype of [
      `<!DOCTYPE bom SYSTEM "${base}/bom.dtd">`,
      `<!DOCTYPE bom [<!ENTITY % remote SYSTEM "${base}/p.dtd"> %remote;]>`,
    ]) {
      const result = await validate(`${doctype}<bom xmlns="${NS}" version="1">&leak;</bom>`);
      expect(ids(result)).toEqual(['xml/doctype']);
    }
    expect(requests).toBe(0);
  });

  it('billion laughs: refused before any expansion, at once', async () => {
    const entities = ['<!ENTITY lol0 "lol">'];
    for (let i = 1; i <= 10; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i - 1};`.repeat(10)}">`);
    const text = `<?xml version="1.0"?>\n<!DOCTYPE bom [${entities.join('')}]>\n<bom xmlns="${NS}" version="1"><components><component type="library"><name>&lol10;</name></component></components></bom>`;
    const result = await validate(text);
    expect(ids(result)).toEqual(['xml/doctype']);
  });

  it('a DOCTYPE after comments and processing instructions is found too; one inside a comment is only text', async () => {
    const late = `<?xml version="1.0"?><!-- a --><?pi x?>\n<!DOCTYPE bom><bom xmlns="${NS}" version="1"/>`;
    expect(ids(await validate(late))).toEqual(['xml/doctype']);
    const commented = `<?xml version="1.0"?><!-- <!DOCTYPE bom> --><bom xmlns="${NS}" version="1"/>`;
    expect((await validate(commented)).diagnostics).toEqual([]);
  });

  it('an entity that nothing declares is a well-formedness error, not an empty string', async () => {
    const result = await validate(`<bom xmlns="${NS}" version="1"><components>&leak;</components></bom>`);
    expect(ids(result)).toEqual(['xml/syntax']);
    expect(result.diagnostics[0]!.message).toContain("Entity 'leak' not defined");
  });

  it('xsi:schemaLocation and XInclude are never followed: no request, no file read', async () => {
    const file = secretFile();
    const text = `<bom xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="${NS} ${base}/bom.xsd" version="1"><components><component type="library"><name>a</name><properties><property name="p"><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="${file}" parse="text"/></property></properties></component></components></bom>`;
    const result = await validate(text);
    expect(requests).toBe(0);
    expect(JSON.stringify(result)).not.toContain(SECRET);
    // The include stays an element the schema does not allow in a property's text: it is reported, not run.
    expect(result.valid).toBe(false);
  });

  it.each([
    [256, []],
    [257, ['xml/too-deep']],
  ])('depth %i: %j', async (depth, expected) => {
    // <bom> and its extension elements: depth counts every element, the root included.
    const inner = depth - 1;
    const text = `<bom xmlns="${NS}" version="1">${'<x:e xmlns:x="urn:e">'.repeat(1)}${'<x:e>'.repeat(inner - 1)}${'</x:e>'.repeat(inner)}</bom>`;
    const result = await validate(text);
    const found = ids(result).filter((id) => id.startsWith('xml/'));
    expect(found).toEqual(expected);
    if (expected.length > 0) expect(result.diagnostics[0]!.message).toBe('Elements are nested deeper than 256 levels');
  });

  it('a self-closing element counts for depth too', async () => {
    const text = `<bom xmlns="${NS}" version="1"><x:e xmlns:x="urn:e">${'<x:e>'.repeat(254)}<x:e/>${'</x:e>'.repeat(255)}</bom>`;
    expect(ids(await validate(text))).toEqual(['xml/too-deep']);
  });

  it('size is bounded as for JSON: --max-size applies to XML bytes, at the byte', async () => {
    const text = `<bom xmlns="${NS}" version="1"/>`;
    const bytes = new TextEncoder().encode(text);
    expect(ids(await validate(bytes, { maxSize: bytes.length - 1 }))).toEqual(['read/too-large']);
    expect((await validate(bytes, { maxSize: bytes.length })).valid).toBe(true);
  });

  it('the CLI refuses the same documents with exit 1 and never prints the file it was asked to read', async () => {
    const dir = newDir();
    writeFileSync(
      path.join(dir, 'bom.xml'),
      `<!DOCTYPE bom [<!ENTITY x SYSTEM "file://${secretFile()}">]><bom xmlns="${NS}" version="1"><components><component type="library"><name>&x;</name></component></components></bom>`,
    );
    const run = await runCli(['validate', 'bom.xml', '-f', 'json'], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('"ruleId": "xml/doctype"');
    expect(run.stdout).not.toContain(SECRET);
  });
});
