import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptedSchemaAddresses, LIBRARY_SCHEMA_DIR } from '../../src/build/schemas.js';
import { SPEC_FORMATS, validate } from '../../src/index.js';
import { SAMPLES } from '../helpers.js';

const sampleOf = (specVersion: string) =>
  JSON.parse(readFileSync(path.join(SAMPLES, `valid-full-${specVersion}.json`), 'utf8')) as Record<string, unknown>;

describe('$schema addresses', () => {
  for (const format of SPEC_FORMATS) {
    const accepted = acceptedSchemaAddresses(format);
    it(`${format.specVersion}: every address an official schema names itself by is accepted, others are not`, async () => {
      if (accepted === undefined) {
        // The official schema does not restrict $schema: any address is the document's business.
        expect((await validate({ ...sampleOf(format.specVersion), $schema: 'https://example.com/x.json' })).valid).toBe(
          true,
        );
        return;
      }
      // The $id of every variant, read here independently of the build, is among them.
      for (const file of format.schemaVariants) {
        const id = (JSON.parse(readFileSync(path.join(LIBRARY_SCHEMA_DIR, file), 'utf8')) as { $id: string }).$id;
        expect(accepted).toContain(id);
      }
      for (const address of accepted) {
        const result = await validate({ ...sampleOf(format.specVersion), $schema: address });
        expect(
          result.diagnostics.filter((d) => d.pointer === '/$schema'),
          address,
        ).toEqual([]);
      }
      const foreign = await validate({
        ...sampleOf(format.specVersion),
        $schema: 'http://cyclonedx.org/schema/bom-9.9.schema.json',
      });
      const finding = foreign.diagnostics.find((d) => d.pointer === '/$schema');
      expect(finding?.severity).toBe('error');
      for (const address of accepted) expect(finding?.message).toContain(address);
    });
  }

  it('accepts what CycloneDX generators write for 1.2 and 1.3', async () => {
    for (const [specVersion, address] of [
      ['1.2', 'http://cyclonedx.org/schema/bom-1.2b.schema.json'],
      ['1.3', 'http://cyclonedx.org/schema/bom-1.3a.schema.json'],
    ] as const) {
      expect((await validate({ ...sampleOf(specVersion), $schema: address })).valid, address).toBe(true);
    }
  });
});
