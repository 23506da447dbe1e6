/**
 * The emulator keeps the spec's promises to a client written to the spec alone, over raw HTTP on 127.0.0.1: the
 * clone operation's status words, hostile request bytes refused with a 400 naming the member, and message delta
 * links that keep their page size.
 */
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { openApiDocument } from '../../src/service/openapi.js';
import { useEmulator, type Body } from './harness.js';

const G = SEED_IDS.groups;
const api = useEmulator({ clonePolls: 2 });

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Body;
  text: string;
}

/** One request with the exact bytes given (no URL normalisation, no body encoding). */
async function raw(
  method: string,
  path: string,
  options: { body?: Buffer | string; headers?: Record<string, string>; token?: boolean } = {},
): Promise<RawReply> {
  const url = new URL(api.emulator.url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== false) headers.Authorization = `Bearer ${await api.token()}`;
  if (options.body !== undefined) {
    headers['Content-Type'] ??= 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(options.body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path: `/v1.0${path}`, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Body;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode!, headers: response.headers, body, text });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('clone status words (spec: States and transitions)', () => {
  it('a client that polls "until its status is no longer running" gets the new team id', async () => {
    const started = await raw('POST', `/teams/${G.release}/clone`, {
      body: JSON.stringify({ displayName: 'Spec client', partsToClone: 'channels' }),
    });
    expect(started.status, started.text).toBe(202);
    const location = String(started.headers.location);
    const statuses: string[] = [];
    let operation: Body;
    // The spec's rule, literally: poll while the status is running (bounded here, so a bug cannot hang the test).
    for (let polls = 0; polls < 10; polls++) {
      operation = (await raw('GET', location.replace(/^\/v1\.0/, ''))).body;
      statuses.push(operation.status);
      if (operation.status !== 'running') break;
    }
    expect(statuses).toEqual(['running', 'running', 'succeeded']);
    expect(operation.targetResourceId).toMatch(/^[0-9a-f-]{36}$/);
    const group = await raw('GET', `/groups/${String(operation.targetResourceId)}`);
    expect(group.body.displayName).toBe('Spec client');
  });

  it("OpenAPI gives the status the spec's three values, and the real service's two words for running", () => {
    const schemas = (openApiDocument('0.0.0') as Body).components.schemas;
    expect(schemas['resource.teamsAsyncOperation'].properties.status).toEqual({
      enum: ['running', 'notStarted', 'inProgress', 'succeeded', 'failed'],
    });
  });
});

describe('message delta keeps Prefer: odata.maxpagesize in its links', () => {
  const DELTA = '/me/mailFolders/inbox/messages/delta';

  it('every page of a round, and the next round, holds the first request’s page size without the header', async () => {
    const first = await raw('GET', DELTA, { headers: { Prefer: 'odata.maxpagesize=2' } });
    expect(first.headers['preference-applied']).toBe('odata.maxpagesize=2');
    const sizes = [first.body.value.length];
    let page = first;
    // The link is followed unchanged and without the Prefer header: the size must come from the link.
    while (page.body['@odata.nextLink'] !== undefined) {
      const link = new URL(String(page.body['@odata.nextLink']));
      page = await raw('GET', `${link.pathname.replace(/^\/v1\.0/, '')}${link.search}`);
      expect(page.status, page.text).toBe(200);
      expect(page.headers['preference-applied']).toBe('odata.maxpagesize=2');
      sizes.push(page.body.value.length);
    }
    // The seed's inbox holds five messages: 2 + 2 + 1, not 2 + everything else.
    expect(sizes).toEqual([2, 2, 1]);
    for (let i = 0; i < 3; i++)
      await raw('POST', '/me/mailFolders/inbox/messages', { body: JSON.stringify({ subject: `new ${i}` }) });
    const link = new URL(String(page.body['@odata.deltaLink']));
    const next = await raw('GET', `${link.pathname.replace(/^\/v1\.0/, '')}${link.search}`);
    expect(next.body.value).toHaveLength(2);
    expect(next.body['@odata.nextLink']).toBeDefined();
  });

  it('a Prefer header on a later page takes precedence over the link’s', async () => {
    const first = await raw('GET', DELTA, { headers: { Prefer: 'odata.maxpagesize=1' } });
    const link = new URL(String(first.body['@odata.nextLink']));
    const page = await raw('GET', `${link.pathname.replace(/^\/v1\.0/, '')}${link.search}`, {
      headers: { Prefer: 'odata.maxpagesize=3' },
    });
    expect(page.headers['preference-applied']).toBe('odata.maxpagesize=3');
    expect(page.body.value).toHaveLength(3);
  });
});

describe('hostile requests: every decoding step refuses bad input with a 400 naming the member', () => {
  const CASE = 'b0073e4e-9001-4f6a-8b7c-9d0e1f2a3b01';
  const SEARCH = 'c61a5860-9006-4f6a-8b7c-9d0e1f2a3b06';
  const TABS = `/teams/${G.release}/channels/${encodeURIComponent(SEED_IDS.channels.general)}/tabs`;

  const fault = (reply: RawReply, status: number, message: string): void => {
    expect(reply.status, reply.text).toBe(status);
    // A long member is cut to 120 characters in the message.
    const [head, tail] = message.split(/(?<=^Invalid [^:]+: ')[^']{120,}(?=')/);
    if (tail === undefined) expect(reply.body.error.message).toBe(message);
    else expect(reply.body.error.message).toMatch(new RegExp(`^${escape(head!)}[^']{1,120}${escape(tail)}$`));
  };
  const post = (path: string, body: unknown): Promise<RawReply> => raw('POST', path, { body: JSON.stringify(body) });

  it('a malformed percent-escape in a reference member', async () => {
    // %E0%A4%A is cut short; %C3%28 is not UTF-8; %zz is no escape at all.
    for (const bad of ['%E0%A4%A', '%C3%28', '%zz']) {
      const app = `${api.emulator.url}/v1.0/appCatalogs/teamsApps/${bad}`;
      fault(
        await post(TABS, { 'teamsApp@odata.bind': app, displayName: 'x' }),
        400,
        `Invalid teamsApp@odata.bind: '${app}' is not valid percent-encoding.`,
      );
      const user = `${api.emulator.url}/v1.0/users/${bad}`;
      fault(
        await post(`/groups/${G.release}/owners/$ref`, { '@odata.id': user }),
        400,
        `Invalid @odata.id: '${user}' is not valid percent-encoding.`,
      );
      const member = `${api.emulator.url}/v1.0/users('${bad}')`;
      fault(
        await post(`/teams/${G.release}/members/remove`, {
          values: [{ '@odata.type': 'vendor.graph.dirUserConversationMember', 'user@odata.bind': member }],
        }),
        400,
        `Invalid user@odata.bind: '${member}' is not valid percent-encoding.`,
      );
      const source = `${api.emulator.url}/v1.0/security/cases/ediscoveryCases/${CASE}/custodians/c/userSources/${bad}`;
      fault(
        await post(`/security/cases/ediscoveryCases/${CASE}/searches/${SEARCH}/custodianSources/$ref`, {
          '@odata.id': source,
        }),
        400,
        `Invalid @odata.id: '${source}' is not valid percent-encoding.`,
      );
    }
  });

  it('a malformed percent-escape in a path segment or a query option', async () => {
    fault(await raw('GET', `/groups/%E0%A4%A`), 400, 'Path parameter group is not valid percent-encoding.');
    const columns = `/me/drive/items/${SEED_IDS.workbook}/workbook/tables/ComponentTable/columns`;
    expect((await raw('GET', `${columns}?$top=1`)).status).toBe(200);
    fault(
      await raw('GET', `${columns}?$select=%C3%28`),
      400,
      "The value of query option '$select' is not valid percent-encoding.",
    );
    fault(
      await raw('GET', `${columns}?$top=%zz`),
      400,
      "The value of query option '$top' is not valid percent-encoding.",
    );
    fault(
      await raw('GET', `${columns}?%E0%A4%A=1`),
      400,
      "Query option name '%E0%A4%A' is not valid percent-encoding.",
    );
  });

  it('a body that is not UTF-8 is refused, not stored with U+FFFD', async () => {
    const before = (await raw('GET', '/me/mailFolders/inbox/messages/delta?$top=1000')).body.value.length;
    const bytes = Buffer.concat([Buffer.from('{"subject":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    fault(
      await raw('POST', '/me/mailFolders/inbox/messages', { body: bytes }),
      400,
      'The request body is not valid UTF-8.',
    );
    // An overlong encoding of '/' and a lone surrogate's encoding are not UTF-8 either.
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
    ]) {
      const body = Buffer.concat([Buffer.from('{"subject":"'), Buffer.from(bad), Buffer.from('"}')]);
      fault(await raw('POST', '/me/mailFolders/inbox/messages', { body }), 400, 'The request body is not valid UTF-8.');
    }
    fault(
      await raw('POST', '/me/mailFolders/inbox/messages', {
        body: '{"subject":"x"}',
        headers: { 'Content-Type': 'application/json; charset=utf-16' },
      }),
      415,
      "A request body must be UTF-8 JSON; got charset 'utf-16'.",
    );
    const after = (await raw('GET', '/me/mailFolders/inbox/messages/delta?$top=1000')).body.value.length;
    expect(after).toBe(before);
    // Valid UTF-8, with or without the charset parameter, is taken as it came.
    for (const contentType of [
      'application/json',
      'application/json; charset=UTF-8',
      'application/json;charset=utf8',
    ]) {
      const created = await raw('POST', '/me/mailFolders/inbox/messages', {
        body: Buffer.from('{"subject":"café ☕"}'),
        headers: { 'Content-Type': contentType },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.body.subject).toBe('café ☕');
    }
  });
});

describe('OData on table columns (spec: "OData query parameters supported")', () => {
  const COLUMNS = `/me/drive/items/${SEED_IDS.workbook}/workbook/tables/ComponentTable/columns`;
  const SHEET_COLUMNS = `/me/drive/items/${SEED_IDS.workbook}/workbook/worksheets/Components/tables/ComponentTable/columns`;
  const names = async (query: string, path = COLUMNS): Promise<string[]> => {
    const reply = await raw('GET', `${path}?${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.value.map((column: Body) => column.name);
  };

  it('$filter with eq and ne on name and index, joined by and / or, with parentheses', async () => {
    expect(await names(`$filter=${encodeURIComponent("name eq 'version'")}`)).toEqual(['version']);
    expect(await names(`$filter=${encodeURIComponent('index ne 0 and index ne 1')}`)).toEqual([
      'type',
      'purl',
      'license',
      'supplier',
    ]);
    expect(await names(`$filter=${encodeURIComponent("name eq 'type' or index eq 0")}`)).toEqual(['name', 'type']);
    // and binds tighter than or; parentheses change that.
    expect(await names(`$filter=${encodeURIComponent("index eq 0 or index eq 1 and name eq 'x'")}`)).toEqual(['name']);
    expect(await names(`$filter=${encodeURIComponent("(index eq 0 or index eq 1) and name eq 'x'")}`)).toEqual([]);
    expect(await names(`$filter=${encodeURIComponent("name eq 'it''s'")}`)).toEqual([]);
  });

  it('$orderby, $select, $top, $skip and $count together, on both paths', async () => {
    const query = `$orderby=${encodeURIComponent('name desc')}&$top=2&$skip=1&$count=true&$select=name`;
    for (const path of [COLUMNS, SHEET_COLUMNS]) {
      const reply = await raw('GET', `${path}?${query}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body['@odata.count']).toBe(6);
      expect(reply.body.value).toEqual([{ name: 'type' }, { name: 'supplier' }]);
    }
    expect(await names(`$orderby=${encodeURIComponent('index desc')}`)).toEqual([
      'supplier',
      'license',
      'purl',
      'type',
      'version',
      'name',
    ]);
    expect((await raw('GET', `${COLUMNS}?$count=false`)).body['@odata.count']).toBeUndefined();
  });

  it('refuses what it does not support with the service’s messages', async () => {
    const refused = async (query: string, message: string): Promise<void> => {
      const reply = await raw('GET', `${COLUMNS}?${query}`);
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body.error.message).toBe(message);
    };
    await refused(
      '$expand=values',
      "Query option 'Expand' is not allowed. To allow it, set the 'AllowedQueryOptions' property on EnableQueryAttribute or QueryValidationSettings.",
    );
    await refused(
      '$search=x',
      "Query option 'Search' is not allowed. To allow it, set the 'AllowedQueryOptions' property on EnableQueryAttribute or QueryValidationSettings.",
    );
    await refused(
      `$filter=${encodeURIComponent("startswith(name,'v')")}`,
      "Invalid filter clause: syntax error at position 15 in 'startswith(name,'v')'.",
    );
    await refused(
      `$filter=${encodeURIComponent('index gt 1')}`,
      "Invalid filter clause: only the operators eq and ne are supported (position 6) in 'index gt 1'.",
    );
    await refused(
      `$filter=${encodeURIComponent("color eq 'red'")}`,
      "Could not find a property named 'color' on type 'vendor.graph.workbookTableColumn'.",
    );
    await refused(
      `$filter=${encodeURIComponent("index eq '1'")}`,
      `Invalid filter clause: 'index' is a number, compared with "1" in 'index eq '1''.`,
    );
    await refused(
      `$filter=${encodeURIComponent("(name eq 'x'")}`,
      "Invalid filter clause: ')' expected at position 12 in '(name eq 'x''.",
    );
    await refused(
      `$filter=${encodeURIComponent("name eq 'x' nonsense")}`,
      "Invalid filter clause: syntax error at position 12 in 'name eq 'x' nonsense'.",
    );
    await refused(
      `$filter=${encodeURIComponent(`${'('.repeat(17)}name eq 'x'${')'.repeat(17)}`)}`,
      `Invalid filter clause: nested deeper than 16 levels in '${'('.repeat(17)}name eq 'x'${')'.repeat(17)}'.`,
    );
    await refused('$count=yes', "Invalid value 'yes' for query option $count: expected true or false.");
    await refused(
      `$orderby=${encodeURIComponent('values asc')}`,
      "Could not find a property named 'values' on type 'vendor.graph.workbookTableColumn'.",
    );
  });
});
