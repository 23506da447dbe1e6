/**
 * The emulator's own routes against a web page the developer has open: DNS rebinding (a foreign Host on a loopback
 * socket), cross-site requests a browser makes without asking (text/plain, forms), and browser-made requests for
 * another site (Origin, Sec-Fetch-Site). Sent with node:http, which lets a test set Host as a browser would.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useEmulator } from './harness.js';

const api = useEmulator();

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: { error?: { code: string; message: string } } & Record<string, unknown> }> {
  const url = new URL(api.emulator.url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: body === undefined ? headers : { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
        setHost: !Object.keys(headers).some((name) => name.toLowerCase() === 'host'),
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text === '' ? {} : JSON.parse(text) }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

describe('Host', () => {
  it('refuses a name that is not loopback by definition (DNS rebinding), on every control route and token', async () => {
    const port = new URL(api.emulator.url).port;
    for (const host of [
      `attacker.example:${port}`,
      'attacker.example',
      `localhost.attacker.example:${port}`,
      `127.0.0.1.nip.io:${port}`,
    ]) {
      for (const [method, path] of [
        ['POST', '/_emulator/token'],
        ['POST', '/_emulator/reset'],
        ['POST', '/_emulator/faults'],
        ['GET', '/_emulator/requests'],
        ['DELETE', '/_emulator/requests'],
      ] as const) {
        const reply = await send(method, path, { ...JSON_TYPE, Host: host }, method === 'POST' ? '{}' : undefined);
        expect(reply.status, `${host} ${method} ${path}`).toBe(403);
        expect(reply.body.error!.code).toBe('Authorization_RequestDenied');
      }
    }
    const refused = await send('POST', '/_emulator/token', { ...JSON_TYPE, Host: 'attacker.example' }, '{}');
    expect(refused.body.error!.message).toBe(
      'The emulator’s control routes answer requests addressed to localhost, 127.0.0.1 or [::1] only, not Host "attacker.example".',
    );
  });

  it('serves localhost, 127.0.0.1 and [::1], with or without a port, in any case', async () => {
    const port = new URL(api.emulator.url).port;
    for (const host of [`localhost:${port}`, 'LOCALHOST', `127.0.0.1:${port}`, '127.0.0.1', `[::1]:${port}`])
      expect((await send('POST', '/_emulator/token', { ...JSON_TYPE, Host: host }, '{}')).status, host).toBe(200);
  });

  it('leaves the health route and the service routes alone', async () => {
    expect((await send('GET', '/_emulator/health', { Host: 'attacker.example' })).status).toBe(200);
  });
});

describe('JSON only', () => {
  it('refuses a POST a browser sends cross-site without asking (text/plain, a form, none) with 415, and changes nothing', async () => {
    await api.emulator.snapshot('before');
    api.emulator.setFaults([{ operation: 'getGroup', fault: 500 }]);
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      undefined,
    ]) {
      const headers: Record<string, string> = type === undefined ? {} : { 'Content-Type': type };
      for (const path of [
        '/_emulator/reset',
        '/_emulator/faults',
        '/_emulator/token',
        '/_emulator/snapshots/before/restore',
      ]) {
        const reply = await send('POST', path, headers, path === '/_emulator/faults' ? '{"rules":[]}' : '');
        expect(reply.status, `${type} ${path}`).toBe(415);
        expect(reply.body.error!.code).toBe('UnsupportedMediaType');
      }
    }
    // The rules were neither reset nor replaced.
    expect(api.emulator.requests()).toEqual([]);
    const rules = await send('GET', '/_emulator/faults', {});
    expect(rules.body).toEqual({ rules: [{ operation: 'getGroup', fault: 500 }] });
    // application/json, with a charset too, is read; an empty JSON POST is {}.
    expect(
      (await send('POST', '/_emulator/faults', { 'Content-Type': 'application/json; charset=utf-8' }, '{"rules":[]}'))
        .status,
    ).toBe(200);
    expect((await send('POST', '/_emulator/reset', JSON_TYPE)).status).toBe(204);
    expect((await send('POST', '/_emulator/token', JSON_TYPE, '[]')).status).toBe(400);
  });
});

describe('browser-made requests for another site', () => {
  it('refuses another Origin and Sec-Fetch-Site cross-site or same-site; serves same-origin and none', async () => {
    const own = new URL(api.emulator.url).origin;
    for (const headers of <Record<string, string>[]>[
      { Origin: 'https://attacker.example' },
      { Origin: 'null' },
      { Origin: own.replace('http:', 'https:').replace(/:\d+$/, ':1') },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
    ]) {
      const reply = await send('POST', '/_emulator/reset', { ...JSON_TYPE, ...headers });
      expect(reply.status, JSON.stringify(headers)).toBe(403);
      expect(reply.body.error!.message).toBe(
        'The emulator’s control routes refuse requests a browser makes for another site.',
      );
    }
    for (const headers of <Record<string, string>[]>[
      { Origin: own },
      { 'Sec-Fetch-Site': 'same-origin' },
      { 'Sec-Fetch-Site': 'none' },
    ])
      expect(
        (await send('POST', '/_emulator/reset', { ...JSON_TYPE, ...headers })).status,
        JSON.stringify(headers),
      ).toBe(204);
  });
});
