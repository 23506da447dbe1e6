import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIBRARY_SCHEMA_DIR } from '../../src/build/schemas.js';
import { CBOM_SPEC_VERSION_FORM } from '../../src/formats/formats.js';
import { init, SPEC_FORMATS, validate, type SpecFormat } from '../../src/index.js';
import { ROOT } from '../helpers.js';

type Schema = Record<string, unknown>;
const schemaOf = (file: string) => JSON.parse(readFileSync(path.join(LIBRARY_SCHEMA_DIR, file), 'utf8')) as Schema;

/** Follows properties, items and local $refs of a schema along a signable path (`*` item, `**` recursion). */
function schemaAt(root: Schema, node: Schema, segments: string[]): Schema[] {
  const resolved = (s: Schema): Schema =>
    typeof s.$ref === 'string' && s.$ref.startsWith('#/definitions/')
      ? resolved((root.definitions as Record<string, Schema>)[s.$ref.slice('#/definitions/'.length)]!)
      : s;
  let current = [resolved(node)];
  for (const segment of segments) {
    current = current.flatMap((s) => {
      if (segment === '*' || segment === '**') return s.items ? [resolved(s.items as Schema)] : [];
      const properties = (s.properties ?? {}) as Record<string, Schema>;
      const branches = [s, ...((s.oneOf ?? s.anyOf ?? []) as Schema[]).map(resolved)];
      return branches.flatMap((b) => {
        const p = ((b.properties ?? properties) as Record<string, Schema>)[segment];
        return p ? [resolved(p)] : [];
      });
    });
  }
  return current;
}

async function errorsOf(format: SpecFormat, edit: (document: Record<string, unknown>) => void): Promise<string[]> {
  const document = init({ specVersion: format.specVersion, toolVersion: '0.0.0' });
  edit(document);
  const result = await validate(document);
  return result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.ruleId} ${d.pointer}`);
}

// The capability table is public API: each row is checked against the official schema it names, or against what
// validate does with a document of that version.
describe.each(SPEC_FORMATS.map((format) => [format.id, format] as const))('%s', (_id, format) => {
  const base = schemaOf(format.baseSchema);

  it('names schema files that exist, and variants whose $id is of its version', () => {
    for (const file of format.schemaVariants) expect(String(schemaOf(file).$id)).toContain(`bom-${format.specVersion}`);
    if (format.family === 'cbom') {
      expect(format.schemaVariants).toEqual([]);
      expect(existsSync(path.join(ROOT, 'schema', format.overlay!))).toBe(true);
    } else {
      expect(String(base.$id)).toContain(`bom-${format.specVersion}`);
      expect(format.overlay).toBeUndefined();
    }
    if (format.schemaEnum) expect(format.schemaEnum).toContain(format.schemaAddress);
    else expect(format.schemaAddress).toContain(`bom-${format.specVersion}.schema.json`);
  });

  it('allows BOM-Links exactly where the schema has a urn:cdx pattern', () => {
    expect(JSON.stringify(base).includes('^urn:cdx:')).toBe(format.bomLinks);
  });

  it('places properties, tools and component authors where the schema has them', () => {
    const definitions = base.definitions as Record<string, Schema>;
    expect(Object.hasOwn(base.properties as Schema, 'properties')).toBe(format.rootProperties);
    expect(Object.hasOwn(definitions.component!.properties as Schema, 'authors')).toBe(format.componentAuthors);
    const tools = (definitions.metadata!.properties as Record<string, Schema>).tools!;
    expect(JSON.stringify(tools).includes('"components"')).toBe(format.toolsAsComponents);
  });

  it('lists as signable only places whose schema has a signature member', () => {
    expect(format.signable.length > 0).toBe(JSON.stringify(base).includes('jsf-0.82'));
    for (const place of format.signable) {
      const segments = place === '' ? [] : place.split('/');
      const targets = schemaAt(base, base, segments);
      expect(targets.length, place).toBeGreaterThan(0);
      for (const target of targets)
        expect(Object.keys((target.properties ?? {}) as Schema), `${format.id} ${place}`).toContain('signature');
    }
  });

  it('requires a document version and component versions as its table says', async () => {
    const withoutVersion = await errorsOf(format, (d) => delete d.version);
    expect(withoutVersion.some((e) => e.startsWith('schema/required '))).toBe(format.versionRequired);
    const withoutComponentVersion = await errorsOf(format, (d) => {
      d.components = [{ type: 'library', name: 'x', 'bom-ref': 'x' }];
    });
    expect(withoutComponentVersion.length > 0).toBe(format.componentVersionRequired);
  });

  it('refuses a license list mixing ids and an expression as its table says', async () => {
    const mixed = await errorsOf(format, (d) => {
      d.components = [
        { type: 'library', name: 'x', version: '1', licenses: [{ license: { id: 'MIT' } }, { expression: 'MIT' }] },
      ];
    });
    expect(mixed.length > 0).toBe(format.licenseExpressionAlone);
  });
});

describe('the CBOM specVersion form', () => {
  it.each([
    ['1.4-cbom-1.0', true],
    ['10.14-cbom-12.30', true],
    ['1.4-cbom-1.0x', false],
    ['v1.4-cbom-1.0', false],
    ['1.4-cbom-1', false],
    ['1-cbom-1.0', false],
    ['1.4-CBOM-1.0', false],
  ])('%s → %s', (value, matches) => {
    expect(CBOM_SPEC_VERSION_FORM.test(value)).toBe(matches);
  });
});
