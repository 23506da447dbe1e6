import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SEED, seedProblems } from '../../src/emulator/index.js';
import { BIN, ROOT, runCli, tempDir } from '../helpers.js';

interface Emulator {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

const running: Emulator[] = [];

/** Starts `bomwright emulator` as a user would and waits for its first line. */
function launch(args: string[]): Promise<Emulator> {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const first = /^listening on (https?:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
      if (first !== null) {
        const emulator = { child, url: first[1]!, stderr: () => stderr, stdout: () => stdout, exited };
        running.push(emulator);
        resolve(emulator);
      }
    });
    void exited.then((code) => reject(new Error(`emulator exited (${code}) before listening: ${stderr}`)));
  });
}

afterEach(() => {
  for (const emulator of running.splice(0)) emulator.child.kill('SIGKILL');
});

async function token(url: string, ...args: string[]): Promise<string> {
  const result = await runCli(['emulator', 'token', '--url', url, ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.trim();
}

describe('bomwright emulator', () => {
  it('prints "listening on" first, logs a line per request on stderr, and stops cleanly on SIGTERM', async () => {
    const emulator = await launch([]);
    const bearer = await token(emulator.url);
    const reply = await fetch(`${emulator.url}/v1.0/me/authentication/phoneMethods`, {
      headers: { Authorization: `Bearer ${bearer}` },
    });
    expect(reply.status).toBe(200);
    emulator.child.kill('SIGTERM');
    expect(await emulator.exited).toBe(0);
    expect(emulator.stderr()).toMatch(
      /^GET \/v1\.0\/me\/authentication\/phoneMethods 200 \d+\.\dms request-id=[0-9a-f-]{36}$/m,
    );
    expect(emulator.stderr()).not.toContain(bearer.split('.')[2]);
    expect(emulator.stderr()).toMatch(/emulator stopped\n$/);
  });

  it('finishes a request in flight before it stops', async () => {
    const emulator = await launch(['--latency', '400', '--quiet']);
    const bearer = await token(emulator.url);
    const pending = fetch(`${emulator.url}/v1.0/me/authentication/methods`, {
      headers: { Authorization: `Bearer ${bearer}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    emulator.child.kill('SIGINT');
    expect((await pending).status).toBe(200);
    expect(await emulator.exited).toBe(0);
  });

  it('keeps every acknowledged write across kill -9 and restarts, with tokens minted offline from --state', async () => {
    const state = tempDir();
    const acknowledged: string[] = [];
    for (let round = 0; round < 3; round++) {
      const emulator = await launch(['--state', state, '--quiet']);
      const offline = await runCli(['emulator', 'token', '--state', state]);
      expect(offline.code, offline.stderr).toBe(0);
      const bearer = offline.stdout.trim();
      const writes = Array.from({ length: 40 }, (_, i) =>
        fetch(`${emulator.url}/v1.0/me/mailFolders/inbox/messages`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ subject: `round ${round} write ${i}` }),
        }).then(
          (response) => {
            if (response.status === 201) acknowledged.push(`round ${round} write ${i}`);
          },
          () => undefined,
        ),
      );
      // Kill while writes are still arriving, once some have been acknowledged.
      const before = acknowledged.length;
      for (let wait = 0; acknowledged.length < before + 5 && wait < 200; wait++)
        await new Promise((resolve) => setTimeout(resolve, 5));
      emulator.child.kill('SIGKILL');
      await Promise.all(writes);
      await emulator.exited;
    }
    const emulator = await launch(['--state', state, '--quiet']);
    const bearer = await token(emulator.url);
    const stored: string[] = [];
    let next: string | undefined = `${emulator.url}/v1.0/me/mailFolders/inbox/messages/delta?$select=subject`;
    while (next !== undefined) {
      const page = (await (
        await fetch(next, { headers: { Authorization: `Bearer ${bearer}`, Prefer: 'odata.maxpagesize=500' } })
      ).json()) as {
        value: { subject: string }[];
        '@odata.nextLink'?: string;
      };
      stored.push(...page.value.map((m) => m.subject));
      next = page['@odata.nextLink'];
    }
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const subject of acknowledged) expect(stored).toContain(subject);
  });

  it('refuses a bad seed, option or busy port with one line and exit code 2', async () => {
    const dir = tempDir();
    const seed = path.join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify({ tenant: { id: 't' } }));
    const badSeed = await runCli(['emulator', '--port', '0', '--seed', seed]);
    expect(badSeed.code).toBe(2);
    expect(badSeed.stderr).toMatch(
      /^bomwright: E_SEED: .*seed\.json is not a valid seed: \/: must have required property 'users'; \/tenant: must have required property 'defaultUser'\n$/,
    );
    expect(badSeed.stderr.trim().split('\n')).toHaveLength(1);
    const throttle = await runCli(['emulator', '--port', '0', '--throttle', '2']);
    expect(throttle.code).toBe(2);
    expect(throttle.stderr).toContain('--throttle');
    const latency = await runCli(['emulator', '--port', '0', '--latency', 'slow']);
    expect(latency.code).toBe(2);
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const busy = await runCli(['emulator', '--port', String(port)]);
    blocker.close();
    expect(busy.code).toBe(2);
    expect(busy.stderr).toContain('EADDRINUSE');
  });

  it('"emulator seed" prints the default tenant, which is a valid seed to start from', async () => {
    const result = await runCli(['emulator', 'seed']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as unknown;
    expect(printed).toEqual(JSON.parse(JSON.stringify(DEFAULT_SEED)));
    expect(seedProblems(printed)).toEqual([]);
    const dir = tempDir();
    writeFileSync(path.join(dir, 'seed.json'), result.stdout);
    const emulator = await launch(['--seed', path.join(dir, 'seed.json'), '--quiet']);
    expect((await fetch(`${emulator.url}/_emulator/health`)).status).toBe(200);
  });

  it('"emulator token" mints user and app tokens from a running emulator, and explains when none answers', async () => {
    const emulator = await launch(['--quiet']);
    const megan = await token(
      emulator.url,
      '--user',
      'megan@contoso.example',
      '--scopes',
      'UserAuthenticationMethod.Read',
      '--expires-in',
      '60',
    );
    const claims = JSON.parse(Buffer.from(megan.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ upn: 'megan@contoso.example', scp: 'UserAuthenticationMethod.Read', idtyp: 'user' });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(60);
    const app = await token(
      emulator.url,
      '--app',
      '0e1d2c3b-2002-4a1b-8c2d-3e4f5a6b7c02',
      '--roles',
      'Place.Read.All,CloudPC.ReadWrite.All',
    );
    expect(JSON.parse(Buffer.from(app.split('.')[1]!, 'base64url').toString())).toMatchObject({
      idtyp: 'app',
      roles: ['Place.Read.All', 'CloudPC.ReadWrite.All'],
    });
    const unknown = await runCli(['emulator', 'token', '--url', emulator.url, '--user', 'ghost@contoso.example']);
    // The emulator refused: a service's answer, exit 1 as for bomwright service.
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^bomwright: E_SERVICE: .*No user 'ghost@contoso\.example'/);
    const unknownApp = await runCli([
      'emulator',
      'token',
      '--url',
      emulator.url,
      '--app',
      'c0ffee00-0000-4000-8000-00000000dead',
    ]);
    expect(unknownApp.code).toBe(1);
    expect(unknownApp.stderr).toBe(
      `bomwright: E_SERVICE: The emulator at ${emulator.url} refused the token request: No application 'c0ffee00-0000-4000-8000-00000000dead' in the emulator's tenant (its app ids: 0e1d2c3b-2002-4a1b-8c2d-3e4f5a6b7c02)\n`,
    );
    emulator.child.kill('SIGTERM');
    await emulator.exited;
    const gone = await runCli(['emulator', 'token', '--url', emulator.url]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/^bomwright: E_NETWORK: No emulator answers at/);
  });
});

describe('bomwright emulator --tls', () => {
  it('serves HTTPS, prints its CA, and the token and service commands trust it (--ca, the state folder, NODE_EXTRA_CA_CERTS)', async () => {
    const state = tempDir();
    const emulator = await launch(['--tls', '--state', state, '--quiet']);
    expect(emulator.url).toMatch(/^https:/);
    const caPath = path.join(state, 'tls', 'ca.pem');
    await expect
      .poll(() => emulator.stdout())
      .toContain(`CA certificate: ${caPath} (trust it with NODE_EXTRA_CA_CERTS=${caPath})`);
    const cert = await runCli(['emulator', 'cert', '--state', state]);
    expect(cert.stdout).toBe(`${caPath}\n`);
    // The token endpoint over HTTPS: the emulator's own CA is found in its state folder.
    const bearer = await token(emulator.url, '--state', state);
    expect(bearer.split('.')).toHaveLength(3);
    const env = { BOMWRIGHT_SERVICE_URL: emulator.url, BOMWRIGHT_TOKEN: bearer };
    const trusted = await runCli(['service', 'list-phone-methods', '--ca', caPath], { env });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout).value.length).toBeGreaterThan(0);
    const extra = await runCli(['service', 'list-phone-methods'], { env: { ...env, NODE_EXTRA_CA_CERTS: caPath } });
    expect(extra.code, extra.stderr).toBe(0);
    const untrusted = await runCli(['service', 'list-phone-methods'], { env });
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toBe(
      'bomwright: E_NETWORK: The TLS connection failed: its certificate is not signed by a CA this process trusts (UNABLE_TO_VERIFY_LEAF_SIGNATURE); trust the CA that signed it with the client option ca (--ca FILE or BOMWRIGHT_CA on the command line; for bomwright emulator --tls, the file bomwright emulator cert prints)\n',
    );
    // The token command without the CA (none in its state folder or home): the certificate, not a missing emulator.
    const home = { BOMWRIGHT_HOME: tempDir() };
    const noCa = await runCli(['emulator', 'token', '--url', emulator.url], { env: home });
    // One convention with bomwright service (untrusted above): a service that cannot be reached exits 1.
    expect(noCa.code).toBe(untrusted.code);
    expect(noCa.stderr).toBe(
      `bomwright: E_NETWORK: No TLS connection to the emulator at ${emulator.url}: its certificate is not signed by a CA this process trusts (UNABLE_TO_VERIFY_LEAF_SIGNATURE); pass its CA with --ca FILE (bomwright emulator cert [--state DIR] prints the file of an emulator started with --tls)\n`,
    );
    const withCa = await runCli(['emulator', 'token', '--url', emulator.url, '--ca', caPath], { env: home });
    expect(withCa.code, withCa.stderr).toBe(0);
    // http spoken to the TLS port is still "no emulator answers"; TLS to a plain port is said as such.
    const plain = await runCli(['emulator', 'token', '--url', emulator.url.replace('https:', 'http:')], { env: home });
    expect(plain.stderr).toMatch(/No emulator answers at http:/);
  });

  it('refuses --cert without --key', async () => {
    const result = await runCli(['emulator', '--cert', 'x.pem', '--port', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--cert and --key go together/);
  });
});
