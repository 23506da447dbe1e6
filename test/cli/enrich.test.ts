/** `bomwright enrich` as a user runs it: the built CLI in its own process, against the emulator over loopback. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { useEmulator } from '../emulator/harness.js';
import { runCli, tempDir } from '../helpers.js';

const api = useEmulator();

const BOM = `${JSON.stringify(
  {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 1,
    metadata: { authors: [{ name: 'Adele Vance', email: 'adele@contoso.example' }] },
    components: [{ type: 'library', name: 'x', version: '1.0.0' }],
  },
  null,
  2,
)}\n`;

async function setup(): Promise<{ dir: string; file: string; env: NodeJS.ProcessEnv }> {
  const dir = tempDir();
  const file = path.join(dir, 'bom.json');
  writeFileSync(file, BOM);
  return {
    dir,
    file,
    env: { BOMWRIGHT_SERVICE_URL: api.emulator.url, BOMWRIGHT_TOKEN: await api.token() },
  };
}

describe('bomwright enrich', () => {
  it('authors on CycloneDX XML: the next version written as XML (afresh, a member was added); --to json writes JSON', async () => {
    const { dir, env } = await setup();
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<!-- by hand -->
<bom xmlns="http://cyclonedx.org/schema/bom/1.6" serialNumber="urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79" version="1">
  <metadata>
    <authors><author><name>Adele Vance</name><email>adele@contoso.example</email></author></authors>
  </metadata>
  <components><component type="library"><name>x</name><version>1.0.0</version></component></components>
</bom>
`;
    writeFileSync(path.join(dir, 'bom.xml'), xml);
    const run = await runCli(['enrich', 'authors', 'bom.xml'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Wrote bom.xml as version 2 (2 service calls)');
    const written = readFileSync(path.join(dir, 'bom.xml'), 'utf8');
    expect(written).toMatch(/^<\?xml/);
    expect(written).toContain('<phone>+1 2065555557</phone>');
    expect(written).toContain('version="2"');
    writeFileSync(path.join(dir, 'again.xml'), xml);
    const json = await runCli(['enrich', 'authors', 'again.xml', '--to', 'json', '-o', 'out.json'], { cwd: dir, env });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'out.json'), 'utf8'))).toMatchObject({
      version: 2,
      metadata: { authors: [{ name: 'Adele Vance', phone: '+1 2065555557' }] },
    });
    expect(readFileSync(path.join(dir, 'again.xml'), 'utf8')).toBe(xml);
  });

  it('authors: --dry-run shows the diff and writes nothing; a run writes the next version; a second run changes nothing', async () => {
    const { dir, file, env } = await setup();
    const dry = await runCli(['enrich', 'authors', 'bom.json', '--dry-run'], { cwd: dir, env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('adele@contoso.example: phone +1 2065555557 written; has phishing-resistant method');
    // The changed member of the author, with its path (diff shows what changed inside an array item).
    expect(dry.stdout).toContain('~ metadata.authors[0].phone: (none) → +1 2065555557');
    expect(dry.stdout).toContain('Would write bom.json as version 2 (dry run; 2 service calls)');
    expect(readFileSync(file, 'utf8')).toBe(BOM);
    const run = await runCli(['enrich', 'authors', 'bom.json'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Wrote bom.json as version 2 (2 service calls)');
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.version).toBe(2);
    expect(written.metadata.authors[0].phone).toBe('+1 2065555557');
    const text = readFileSync(file, 'utf8');
    const again = await runCli(['enrich', 'authors', 'bom.json', '--format', 'json'], { cwd: dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ changed: false, written: null, version: 2, calls: 2 });
    expect(readFileSync(file, 'utf8')).toBe(text);
    const third = await runCli(['enrich', 'authors', 'bom.json'], { cwd: dir, env });
    expect(third.stdout).toBe(
      'adele@contoso.example: phone +1 2065555557 already there; has phishing-resistant method\nbom.json unchanged (version 2; 2 service calls)\n',
    );
  });

  it("authors: says a hand-written phone is kept, never that it wrote the directory's, and counts contacts", async () => {
    const dir = tempDir();
    const doc = JSON.parse(BOM);
    doc.metadata.authors = [
      { name: 'Adele Vance', email: 'adele@contoso.example', phone: '+44 20 7946 0000' },
      { name: 'Adele again', email: 'adele@contoso.example' },
    ];
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc));
    const env = { BOMWRIGHT_SERVICE_URL: api.emulator.url, BOMWRIGHT_TOKEN: await api.token() };
    const run = await runCli(['enrich', 'authors', 'bom.json'], { cwd: dir, env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe(
      'adele@contoso.example: phone +1 2065555557 written in 1 of 2 contacts, hand-written phone kept in 1 of 2 contacts (the directory has +1 2065555557; not written); has phishing-resistant method',
    );
    const written = JSON.parse(readFileSync(path.join(dir, 'bom.json'), 'utf8'));
    expect(written.metadata.authors.map((a: { phone?: string }) => a.phone)).toEqual([
      '+44 20 7946 0000',
      '+1 2065555557',
    ]);
    doc.metadata.authors = [doc.metadata.authors[0]];
    writeFileSync(path.join(dir, 'bom.json'), JSON.stringify(doc));
    const kept = await runCli(['enrich', 'authors', 'bom.json', '--dry-run'], { cwd: dir, env });
    expect(kept.stdout.split('\n')[0]).toBe(
      'adele@contoso.example: hand-written phone kept (the directory has +1 2065555557; not written); has phishing-resistant method',
    );
  });

  it('a service error is one line with its code and request-id, exit 1, and the document untouched', async () => {
    const { dir, file, env } = await setup();
    const result = await runCli(['enrich', 'label', 'bom.json', '--category', 'c', '--subcategory', 's'], {
      cwd: dir,
      env,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^bomwright: E_SERVICE: \w+: .* \(status 404, request-id [0-9a-f-]{36}\)\n$/);
    expect(readFileSync(file, 'utf8')).toBe(BOM);
    const token = await runCli(['enrich', 'authors', 'bom.json'], {
      cwd: dir,
      env: { ...env, BOMWRIGHT_TOKEN: 'x.y.z' },
    });
    expect(token.code).toBe(1);
    expect(token.stderr).toMatch(/^bomwright: E_SERVICE: InvalidAuthenticationToken: .*status 401/);
    expect(token.stderr).not.toContain('x.y.z');
    expect(readFileSync(file, 'utf8')).toBe(BOM);
  });

  it('approval: a request that was not delivered is refused (exit 1, nothing written); a delivered one is recorded', async () => {
    const { dir, file, env } = await setup();
    const refused = await runCli(['enrich', 'approval', 'bom.json', '--request', SEED_IDS.assignmentRequests.pending], {
      cwd: dir,
      env,
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^bomwright: E_REFUSED: .* is "pendingApproval", not delivered/);
    expect(readFileSync(file, 'utf8')).toBe(BOM);
    const approved = await runCli(
      ['enrich', 'approval', 'bom.json', '--request', SEED_IDS.assignmentRequests.delivered, '-o', 'out.json'],
      { cwd: dir, env },
    );
    expect(approved.code, approved.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(BOM);
    const out = JSON.parse(readFileSync(path.join(dir, 'out.json'), 'utf8'));
    expect(out.metadata.properties).toContainEqual({ name: 'bomwright:approval:state', value: 'delivered' });
  });

  it('a signed document: refused without --key (untouched), re-signed with it, and still verifies', async () => {
    const { dir, file, env } = await setup();
    expect((await runCli(['keygen', '--out', 'k'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['sign', 'bom.json', '-k', 'k.private.pem'], { cwd: dir })).code).toBe(0);
    const signed = readFileSync(file, 'utf8');
    const refused = await runCli(['enrich', 'authors', 'bom.json'], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/is signed \(1 signature\) and this change invalidates it: re-sign with --key/);
    expect(readFileSync(file, 'utf8')).toBe(signed);
    const resigned = await runCli(['enrich', 'authors', 'bom.json', '-k', 'k.private.pem'], { cwd: dir, env });
    expect(resigned.code, resigned.stderr).toBe(0);
    expect(resigned.stdout).toContain('as version 2, re-signed 1 object');
    const verify = await runCli(['verify', 'bom.json', '--trust', 'k.public.jwk', '--require-trusted'], { cwd: dir });
    expect(verify.code, verify.stdout).toBe(0);
  });

  it('says how to reach the service when it is not configured', async () => {
    const { dir } = await setup();
    const result = await runCli(['enrich', 'authors', 'bom.json'], {
      cwd: dir,
      env: { BOMWRIGHT_SERVICE_URL: '', BOMWRIGHT_TOKEN: '' },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No service address: pass --base-url or set BOMWRIGHT_SERVICE_URL/);
  });

  it('names the flows when none is given', async () => {
    for (const [command, message] of [
      ['enrich', 'Name a flow: authors, label or approval'],
      ['import', 'Name a source: workbook'],
      ['publish', 'Name a target: thread, bundle or tab'],
      ['notify', 'Name how: forward'],
    ] as const) {
      const result = await runCli([command]);
      expect(result.code, command).toBe(2);
      expect(result.stderr, command).toContain(message);
    }
  });
});
