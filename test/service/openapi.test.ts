import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { openApiDocument } from '../../src/service/openapi.js';
import { OPERATIONS } from '../../src/service/operations.js';
import { ROOT, runCli, tempDirs } from '../helpers.js';
import { useEmulator } from '../emulator/harness.js';

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

describe('the OpenAPI description for generators', () => {
  type Doc = {
    paths: Record<string, Record<string, { operationId: string; parameters: { name: string; schema: Json }[] }>>;
    components: { schemas: Record<string, { properties: Record<string, Json> }> };
  };
  type Json = Record<string, unknown>;
  const document = openApiDocument('test') as unknown as Doc;

  it('gives every path form a meaningful operationId, unique and without a numbered suffix', () => {
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((o) => o.operationId));
    expect(ids).toHaveLength(OPERATIONS.reduce((n, operation) => n + operation.paths.length, 0));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => /_\d+$/.test(id))).toEqual([]);
    const id = (path: string, method = 'get') => document.paths[path]![method]!.operationId;
    expect(id('/me/authentication/phoneMethods')).toBe('listPhoneMethods');
    expect(id('/users/{user}/authentication/phoneMethods')).toBe('listPhoneMethodsOfUser');
    expect(id('/me/drive/root:/{itemPath}:/workbook/names/{name}/range/format/borders/{sideIndex}', 'patch')).toBe(
      'updateNamedRangeBorderByPath',
    );
    expect(id('/me/drive/items/{item}/workbook/names/{name}/range/format/borders/{sideIndex}')).toBe(
      'getRangeBorderOfNamedRange',
    );
    expect(id('/me/calendarGroups/{calendarGroup}/calendars/{calendar}/events/{event}/forward', 'post')).toBe(
      'forwardEventInCalendarGroupCalendar',
    );
    expect(id('/groups/{group}/calendar/events/{event}/forward', 'post')).toBe('forwardEventOfGroupInDefaultCalendar');
    expect(id('/users/{user}/messages/{message}/event/calendar/calendarView/{event}/permanentDelete', 'post')).toBe(
      'permanentDeleteEventOfUserOfMessageEventInDefaultCalendarView',
    );
    expect(id('/users/{user}/calendarView/{event}/permanentDelete', 'post')).toBe(
      'permanentDeleteEventOfUserInCalendarView',
    );
  });

  it('lists only the query options the spec supports, with the closed sets as enums', () => {
    const parameters = (path: string) =>
      Object.fromEntries(
        document.paths[path]!.get!.parameters.filter((p) => p.name !== 'folder' && p.name !== 'user').map((p) => [
          p.name,
          p.schema,
        ]),
      );
    const delta = parameters('/me/mailFolders/{folder}/messages/delta');
    expect(Object.keys(delta)).toEqual([
      '$select',
      '$top',
      '$expand',
      '$filter',
      '$orderby',
      '$skiptoken',
      '$deltatoken',
      'changeType',
      'Prefer',
    ]);
    expect(delta.changeType).toEqual({ type: 'string', enum: ['created', 'updated', 'deleted'] });
    expect(delta.$orderby).toEqual({ type: 'string', enum: ['receivedDateTime desc'] });
    expect(delta.$top).toEqual({ type: 'integer', minimum: 0 });
    expect(parameters('/me/authentication/phoneMethods')).toEqual({});
    const schemas = document.components.schemas;
    expect(schemas['resource.phoneAuthenticationMethod']!.properties.phoneType).toEqual({
      type: ['string', 'null'],
      enum: ['mobile', 'alternateMobile', 'office', null],
    });
    expect(schemas['resource.phoneAuthenticationMethod']!.properties.smsSignInState!.enum).toEqual([
      'ready',
      'notSupported',
      null,
    ]);
    expect(schemas['resource.teamsAsyncOperation']!.properties.status).toEqual({
      enum: ['running', 'notStarted', 'inProgress', 'succeeded', 'failed'],
    });
    expect(schemas['resource.workbookRangeBorder']!.properties.weight!.enum).toEqual([
      'Hairline',
      'Thin',
      'Medium',
      'Thick',
      null,
    ]);
    expect(schemas['rangeBorder']!.properties.style!.enum).toEqual([
      'None',
      'Continuous',
      'Dash',
      'DashDot',
      'DashDotDot',
      'Dot',
      'Double',
      'SlantDashDot',
    ]);
  });
});

describe('a client generated from the OpenAPI description', () => {
  const api = useEmulator({ clonePolls: 0 });
  const dirs = tempDirs();

  /** Compiles `files` with the generated types beside them, strict; the compiler's output and exit code. */
  async function compile(types: string, files: Record<string, string>) {
    const dir = dirs();
    writeFileSync(path.join(dir, 'service.ts'), types);
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const args = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--skipLibCheck'];
    return spawnSync(process.execPath, [tsc, ...args, ...Object.keys(files)], { cwd: dir, encoding: 'utf8' });
  }

  it('type-checks against the emulator’s answers, and refuses a value outside a closed set', async () => {
    const types = astToString(
      await openapiTS(openApiDocument('test') as unknown as Parameters<typeof openapiTS>[0], {
        additionalProperties: true,
      }),
    );
    const phones = (await api.call('GET', '/me/authentication/phoneMethods')).body;
    const accepted = await api.call('POST', `/teams/${SEED_IDS.groups.release}/clone`, {
      body: { displayName: 'Copy', partsToClone: 'apps' },
    });
    expect(accepted.status).toBe(202);
    const operation = (await api.call('GET', `/${accepted.headers.get('location')!.replace(/^\//, '')}`)).body;
    expect(operation.status).toBe('succeeded');
    const use = [
      "import type { paths } from './service.js';",
      "type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;",
      `export const phones: Json<paths['/me/authentication/phoneMethods']['get']['responses'][200]> = ${JSON.stringify(phones)};`,
      `export const operation: Json<paths['/teams/{team}/operations/{operation}']['get']['responses'][200]> = ${JSON.stringify(operation)};`,
      "type DeltaQuery = NonNullable<paths['/me/mailFolders/{folder}/messages/delta']['get']['parameters']['query']>;",
      "export const query: DeltaQuery = { changeType: 'created', $top: 5, $orderby: 'receivedDateTime desc' };",
    ].join('\n');
    const good = await compile(types, { 'use.ts': use });
    expect(good.stdout + good.stderr).toBe('');
    expect(good.status).toBe(0);
    const bad = await compile(types, {
      'bad.ts': [
        "import type { components } from './service.js';",
        "export const method: components['schemas']['resource.phoneAuthenticationMethod'] = { id: 'x', phoneType: 'pager' };",
        "type DeltaQuery = NonNullable<import('./service.js').paths['/me/mailFolders/{folder}/messages/delta']['get']['parameters']['query']>;",
        "export const search: DeltaQuery = { $search: 'sbom' };",
      ].join('\n'),
    });
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toContain('bad.ts(2,');
    expect(bad.stdout).toContain('"pager"');
    expect(bad.stdout).toContain('bad.ts(4,');
    expect(bad.stdout).toContain('$search');
  }, 60_000);
});
