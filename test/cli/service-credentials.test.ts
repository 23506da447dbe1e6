/**
 * The client's credential rule through the CLI as a subprocess, against hostile node:http servers on 127.0.0.1:
 * links to another origin refused (and counted: nothing reaches them) unless --allow-host names it, no token on
 * stdout or stderr whatever the service echoes, a 2xx that is not what the operation answers refused, link loops
 * ended.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers.js';
import { hostile, json, page, type Hostile } from '../service/hostile.js';

const TOKEN = 'opaque-SECRET-0123456789abcdef';
const PHONES = '/v1.0/me/authentication/phoneMethods';
const env = (base: Hostile) => ({ BOMWRIGHT_SERVICE_URL: base.url, BOMWRIGHT_TOKEN: TOKEN });
const foreignRequests: number[] = [];

function expectNoToken(run: { stdout: string; stderr: string }) {
  for (const stream of [run.stdout, run.stderr]) {
    expect(stream).not.toContain(TOKEN);
    expect(stream).not.toContain('SECRET-0123');
  }
}

describe('links to another origin (--all)', () => {
  it('are refused with one line naming the origin, exit 1, nothing sent; --allow-host widens it knowingly', async () => {
    const foreign = await hostile((_q, r) => json(r, 200, page([{ id: 'far' }])));
    const base = await hostile((_q, r) =>
      json(r, 200, page([{ id: 'near' }], { next: `${foreign.url}${PHONES}?p=2` })),
    );
    const refused = await runCli(['service', 'list-phone-methods', '--all'], { env: env(base) });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      `bomwright: E_FOREIGN_ORIGIN: listPhoneMethods: @odata.nextLink points to ${foreign.origin}, not ${base.origin}: refused, nothing was sent to it (allow it with allowedHosts, --allow-host on the command line)\n`,
    );
    foreignRequests.push(foreign.requests.length);
    expect(foreign.requests).toHaveLength(0);
    // Another port of the same host is not the same origin; a repeated --allow-host adds each entry.
    const wrongPort = await runCli(
      ['service', 'list-phone-methods', '--all', '--allow-host', `127.0.0.1:${foreign.port + 1}`],
      { env: env(base) },
    );
    expect(wrongPort.code).toBe(1);
    expect(foreign.requests).toHaveLength(0);
    const allowed = await runCli(
      [
        'service',
        'list-phone-methods',
        '--all',
        '--allow-host',
        'graph.contoso.example',
        '--allow-host',
        `127.0.0.1:${foreign.port}`,
      ],
      { env: env(base) },
    );
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toEqual({ value: [{ id: 'near' }, { id: 'far' }] });
    expect(foreign.requests.map((r) => r.authorization)).toEqual([`Bearer ${TOKEN}`]);
  });

  it('a bad --allow-host is a usage error before anything is sent', async () => {
    const base = await hostile((_q, r) => json(r, 200, page([])));
    const run = await runCli(['service', 'list-phone-methods', '--allow-host', 'https://graph.example/v1.0'], {
      env: env(base),
    });
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(
      'bomwright: E_USAGE: --allow-host: allowed host "https://graph.example/v1.0" has a path: give a host (api.example.com), host:port (api.example.com:8443) or an origin (https://api.example.com)',
    );
    expect(base.requests).toHaveLength(0);
  });

  it('every command that talks to the service takes --allow-host', async () => {
    for (const command of [
      ['service', 'list-phone-methods'],
      ['enrich', 'authors'],
      ['enrich', 'label'],
      ['enrich', 'approval'],
      ['import', 'workbook'],
      ['publish', 'thread'],
      ['publish', 'bundle'],
      ['publish', 'tab'],
      ['notify', 'forward'],
    ]) {
      const help = await runCli([...command, '--help']);
      expect(help.stdout, command.join(' ')).toContain('--allow-host');
    }
  });

  it('enrich: a foreign link in a collection leaves the BOM untouched and reaches nobody', async () => {
    const foreign = await hostile((_q, r) => json(r, 200, page([])));
    const base = await hostile((_q, r) => json(r, 200, page([], { next: `${foreign.url}/v1.0/x` })));
    const dir = tempDir();
    const file = path.join(dir, 'bom.json');
    const bom = `${JSON.stringify({
      bomFormat: 'CycloneDX',
      specVersion: '1.6',
      serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
      version: 1,
      metadata: { authors: [{ name: 'Adele Vance', email: 'adele@contoso.example' }] },
      components: [],
    })}\n`;
    writeFileSync(file, bom);
    const run = await runCli(['enrich', 'authors', 'bom.json'], { cwd: dir, env: env(base) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^bomwright: E_FOREIGN_ORIGIN: list\w+: @odata\.nextLink points to http:\/\/127\.0\.0\.1:\d+, not /,
    );
    expect(readFileSync(file, 'utf8')).toBe(bom);
    foreignRequests.push(foreign.requests.length);
    expect(foreign.requests).toHaveLength(0);
  });
});

/** Echoes the Authorization header into every field of its error, its headers, and text around it. */
const echoing = (status = 403) =>
  hostile((request, response) => {
    const auth = request.headers.authorization ?? '';
    const raw = auth.replace(/^Bearer /, '');
    response.writeHead(status, {
      'content-type': 'application/json',
      'request-id': `req ${raw}`,
      date: raw,
      'retry-after': '0',
    });
    response.end(
      JSON.stringify({
        error: {
          code: auth,
          message: `${'x'.repeat(480)} ${auth}`,
          innerError: { code: raw, 'request-id': raw, date: raw, 'client-request-id': auth },
        },
      }),
    );
  });

describe('no token on stdout or stderr', () => {
  it('a service that echoes Authorization into every error field: service, notify, enrich', async () => {
    const echo = await echoing();
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'bom.json'),
      JSON.stringify({
        bomFormat: 'CycloneDX',
        specVersion: '1.6',
        version: 1,
        metadata: { authors: [{ name: 'A', email: 'a@contoso.example' }] },
      }),
    );
    const runs = [
      await runCli(['service', 'get-group', '--group', 'g'], { env: env(echo) }),
      await runCli(['service', 'get-group', '--group', 'g', '--token', TOKEN], {
        env: { BOMWRIGHT_SERVICE_URL: echo.url },
      }),
      await runCli(['notify', 'forward', '--event', 'e', '--to', 'dana@fabrikam.example'], { env: env(echo) }),
      await runCli(['enrich', 'authors', 'bom.json'], { cwd: dir, env: env(echo) }),
    ];
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toMatch(
        /^bomwright: E_SERVICE: Bearer \[token\]: x+ Bearer \[token\] \(status 403, request-id req \[token\]\)\n$/,
      );
      expectNoToken(run);
    }
    // The server did receive it: the echo is real.
    expect(echo.requests.every((r) => r.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('a success whose answer echoes it: the lines and report quote the service without the token', async () => {
    const echo = await hostile((request, response) => {
      const raw = (request.headers.authorization ?? '').replace(/^Bearer /, '');
      // publish tab reads the channel's tabs first: none there, so it pins.
      if (request.method === 'GET') json(response, 200, { value: [] });
      else json(response, 201, { id: 'tab-1', displayName: `tab ${raw}`, webUrl: `https://x.example/?t=${raw}` });
    });
    for (const format of ['text', 'json']) {
      const run = await runCli(
        [
          'publish',
          'tab',
          '--team',
          't',
          '--channel',
          'c',
          '--app',
          'a',
          '--url',
          'https://d.example',
          '--name',
          'D',
          '--format',
          format,
        ],
        { env: env(echo) },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('tab [token]');
      expectNoToken(run);
    }
  });

  it('the same after retries (E_RETRY_EXHAUSTED)', async () => {
    const echo = await echoing(429);
    const run = await runCli(['service', 'list-phone-methods'], { env: env(echo) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^bomwright: E_RETRY_EXHAUSTED: Gave up after 4 attempts: Bearer \[token\]: /);
    expect(echo.requests).toHaveLength(4);
    expectNoToken(run);
  });
});

describe('a 2xx that is not what the operation answers', () => {
  it('fails like the typed client (E_RESPONSE_SHAPE, exit 1); a no-content operation ignores its body', async () => {
    let mode: 'html' | 'lying' | 'empty' = 'html';
    const server = await hostile((_q, response) => {
      if (mode === 'html') response.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>');
      else if (mode === 'lying') response.writeHead(200, { 'content-type': 'application/json' }).end('not json');
      else response.writeHead(200, { 'content-type': 'application/json' }).end();
    });
    const list = await runCli(['service', 'list-phone-methods'], { env: env(server) });
    expect(list).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'bomwright: E_RESPONSE_SHAPE: listPhoneMethods: the 200 answer is not JSON (content-type "text/html") (status 200)\n',
    });
    mode = 'lying';
    const entity = await runCli(['service', 'get-group', '--group', 'g'], { env: env(server) });
    expect(entity.code).toBe(1);
    expect(entity.stderr).toBe(
      'bomwright: E_RESPONSE_SHAPE: getGroup: the 200 answer is not JSON (content-type "application/json") (status 200)\n',
    );
    mode = 'empty';
    const empty = await runCli(['service', 'get-group', '--group', 'g'], { env: env(server) });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe('bomwright: E_RESPONSE_SHAPE: getGroup: the 200 answer has no body (status 200)\n');
    mode = 'html';
    const dir = tempDir();
    writeFileSync(
      path.join(dir, 'forward.json'),
      JSON.stringify({ ToRecipients: [{ EmailAddress: { Address: 'dana@fabrikam.example' } }] }),
    );
    const none = await runCli(['service', 'forward-event', '--event', 'e', '--body', 'forward.json'], {
      cwd: dir,
      env: env(server),
    });
    expect(none.code, none.stderr).toBe(0);
    expect(JSON.parse(none.stdout)).toEqual({ status: 200 });
  });

  it('a page whose item is not the resource is refused too, on any page of --all', async () => {
    let n = 0;
    const server = await hostile((request, response) => {
      n++;
      json(
        response,
        200,
        n === 1
          ? page([{ id: 'a' }], { next: `http://127.0.0.1:${request.socket.localPort}${PHONES}?p=2` })
          : page([{ id: 5 }]),
      );
    });
    const run = await runCli(['service', 'list-phone-methods', '--all'], { env: env(server) });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^bomwright: E_RESPONSE_SHAPE: listPhoneMethods: item 0: \/id must be string/);
  });
});

describe('link loops', () => {
  it('--all on a nextLink back at itself ends with E_LINK_LOOP, exit 1, after two requests', async () => {
    const server = await hostile((request, response) =>
      json(response, 200, page([{ id: 'a' }], { next: `http://127.0.0.1:${request.socket.localPort}/v1.0/loop` })),
    );
    const run = await runCli(['service', 'list-phone-methods', '--all'], { env: env(server) });
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'bomwright: E_LINK_LOOP: listPhoneMethods: the service sent a link to a page already read (page 3 would repeat one): a loop, stopped\n',
    });
    expect(server.requests.map((r) => r.url)).toEqual([PHONES, '/v1.0/loop']);
  });

  it('the foreign origins of this file received no request', () => {
    expect(foreignRequests.length).toBeGreaterThan(0);
    expect(foreignRequests.reduce((a, b) => a + b, 0)).toBe(0);
  });
});
