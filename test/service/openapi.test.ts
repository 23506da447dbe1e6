import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/service/openapi.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { runCli } from '../helpers.js';

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document with every operation and path form of the table', async () => {
    const document = openApiDocument('test') as { paths: Record<string, Record<string, { operationId: string }>> };
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const operation of OPERATIONS)
      for (const template of operation.paths)
        expect(
          document.paths[template]?.[operation.method.toLowerCase()],
          `${operation.name} ${template}`,
        ).toBeDefined();
    // Every reference names a component: the request shapes and the resources the client checks responses against.
    const text = JSON.stringify(document);
    const components = (document as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas;
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs).toContain('resource.phoneAuthenticationMethod');
    for (const ref of refs) expect(components[ref], ref).toBeDefined();
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is what "bomwright service openapi" writes', async () => {
    const result = await runCli(['service', 'openapi']);
    expect(result.code).toBe(0);
    const written = JSON.parse(result.stdout) as { openapi: string; info: { version: string } };
    expect(written.openapi).toBe('3.1.0');
    expect(written).toEqual(
      JSON.parse(JSON.stringify(openApiDocument(written.info.version.replace('bomwright ', '')))),
    );
  });
});
