/** validate(…, { details: true }): signatures, the version verdict and the dependency graph, as plain bounded data. */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseKeyMaterial, validate } from '../../src/index.js';
import { signDocument as sign } from '../../src/jsf/sign-document.js';
import { DETAIL_LIMITS, dependencyGraph } from '../../src/validate/details.js';
import { sampleBom, testKey } from '../author/fixtures.js';
import { HAVE_VECTORS, KEYS } from '../jsf/fixtures.js';
import { minimalBom } from '../helpers.js';

const text = (value: unknown) => JSON.stringify(value, null, 2);

describe('details', () => {
  it('are computed only when asked', async () => {
    const plain = await validate(text(sampleBom()));
    expect(plain).not.toHaveProperty('details');
    const rich = await validate(text(sampleBom()), { details: true });
    expect(rich.details).toBeDefined();
    // Asking for details changes nothing else.
    const { details: _details, ...rest } = rich;
    expect(rest).toEqual(plain);
  });

  it('are plain data that crosses a thread boundary unchanged', async () => {
    const key = testKey();
    const signed = sign(sampleBom(), { key, targets: ['all'] });
    const result = await validate(text(signed), {
      details: true,
      baseline: { document: text(sampleBom()), name: 'HEAD' },
    });
    expect(structuredClone(result)).toEqual(result);
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it('list every signer with its verdict and what its trust rests on', async () => {
    const key = testKey();
    const document = sign(sampleBom(), { key, targets: ['all'] }) as Record<string, unknown>;
    (document.components as Record<string, unknown>[])[0]!.name = 'tampered';
    const untrusted = (await validate(text(document), { details: true })).details!;
    const byPointer = new Map(untrusted.signatures.map((s) => [s.signedPointer, s]));
    expect(byPointer.get('')).toMatchObject({ verdict: 'invalid', algorithm: 'ES256', keySource: 'publicKey' });
    expect(byPointer.get('/components/1')).toMatchObject({
      verdict: 'valid',
      trust: 'untrusted',
      trustReason: 'the embedded key is not in the trust store',
      pointer: '/components/1/signature',
    });
    expect(byPointer.get('/components/1')).not.toHaveProperty('trustedBy');

    const pinned = parseKeyMaterial(key.publicKey!.export({ type: 'spki', format: 'pem' }) as string, 'release.pem');
    const trusted = (await validate(text(document), { details: true, trust: { keys: pinned, roots: [] } })).details!;
    expect(trusted.signatures.find((s) => s.signedPointer === '/components/1')).toMatchObject({
      trust: 'trusted',
      trustedBy: 'key',
    });
  });

  it.runIf(HAVE_VECTORS)('name the certificate path’s subjects, the signer’s first', async () => {
    const read = (file: string) => readFileSync(path.join(KEYS, file), 'utf8');
    const chain = (
      read('p256certpath.pem').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []
    ).map((pem) => new X509Certificate(pem));
    const key = { ...parseKeyMaterial(read('p256privatekey.pem'), 'p256.pem')[0]!, certificates: undefined };
    const signed = sign(minimalBom('1.6'), { key, targets: ['root'], certificatePath: chain });
    const [signer] = (await validate(text(signed), { details: true })).details!.signatures;
    expect(signer).toMatchObject({ verdict: 'valid', keySource: 'certificatePath' });
    expect(signer!.certificates).toEqual(['CN=Test certificate matching p256privatekey.pem', 'CN=Test Sub CA']);
  });

  it('give the version rule’s verdict with a summary of the changes', async () => {
    const before = sampleBom();
    const after = sampleBom();
    (after.components as unknown[]).push({
      type: 'library',
      'bom-ref': 'pkg:npm/new@1.0.0',
      name: 'new',
      version: '1.0.0',
    });
    const broken = (await validate(text(after), { details: true, baseline: { document: before, name: 'v3.json' } }))
      .details!.versionRule!;
    expect(broken).toMatchObject({
      baseline: 'v3.json',
      outcome: 'fail',
      changed: true,
      previous: { version: '3', serialNumber: before.serialNumber },
      current: { version: '3', serialNumber: before.serialNumber },
    });
    expect(broken.diff!.components).toMatchObject({ added: 1, removed: 0, changed: 0 });
    expect(broken.diff!.components.examples.added).toEqual(['pkg:npm/new@1.0.0']);

    const bumped = { ...after, version: 4 };
    const holds = (await validate(text(bumped), { details: true, baseline: { document: before } })).details!;
    expect(holds.versionRule).toMatchObject({ outcome: 'pass', changed: true, current: { version: '4' } });
    const same = (await validate(text(before), { details: true, baseline: { document: before } })).details!;
    expect(same.versionRule).toMatchObject({ outcome: 'pass', changed: false });
    expect(same.versionRule).not.toHaveProperty('diff');
    const fresh = (await validate(text(before), { details: true, baseline: { document: 'not json' } })).details!;
    expect(fresh.versionRule).toMatchObject({ outcome: 'not-compared' });
    expect((await validate(text(before), { details: true })).details).not.toHaveProperty('versionRule');
  });

  it('draw the graph: nodes, nesting, dependsOn edges, missing references and the nodes with findings', async () => {
    const document = minimalBom('1.6', {
      metadata: { component: { type: 'application', 'bom-ref': 'app', name: 'app', version: '1.0' } },
      components: [
        {
          type: 'library',
          'bom-ref': 'a',
          name: 'a',
          version: 7,
          components: [{ type: 'file', 'bom-ref': 'a/x', name: 'x' }],
        },
        { type: 'library', 'bom-ref': 'b', name: 'b', version: '2' },
      ],
      services: [{ 'bom-ref': 'svc', name: 'api' }],
      dependencies: [
        { ref: 'app', dependsOn: ['a', 'b', 'a'] },
        { ref: 'b', dependsOn: ['ghost', 'svc'] },
      ],
    });
    const result = await validate(text(document), { details: true });
    const graph = result.details!.graph;
    expect(graph.ref).toEqual(['app', 'a', 'a/x', 'b', 'svc', 'ghost']);
    expect(graph.kind).toEqual(['application', 'library', 'file', 'library', 'service', 'missing']);
    expect(graph.parent).toEqual([-1, -1, 1, -1, -1, -1]);
    expect(graph.name).toEqual(['app', 'a', 'x', 'b', 'api', '']);
    expect(graph.version).toEqual(['1.0', '7', '', '2', '', '']);
    expect(graph.pointer.slice(0, 3)).toEqual(['/metadata/component', '/components/0', '/components/0/components/0']);
    // Each edge once, however often it is listed.
    expect(graph.edges).toEqual([0, 1, 0, 3, 3, 5, 3, 4]);
    // The wrong type of a's version marks a; the repeated dependsOn item marks the entry's ref (app); the
    // unresolved reference marks the missing node.
    expect(graph.severity).toEqual([2, 2, 0, 0, 0, 2]);
    const about = (node: number) =>
      graph.findings.flatMap((n, i) =>
        i % 2 === 0 && n === node ? [result.diagnostics[graph.findings[i + 1]!]!.ruleId] : [],
      );
    expect(about(0)).toEqual(['schema/unique-items']);
    expect(about(1)).toEqual(['schema/type']);
    expect(about(5)).toEqual(['ref/unresolved']);
  });

  it('are bounded for hostile documents', () => {
    const long = 'x'.repeat(10_000);
    const components = Array.from({ length: DETAIL_LIMITS.nodes + 5 }, (_, i) => ({ 'bom-ref': `c${i}`, name: long }));
    const graph = dependencyGraph({ components, dependencies: [{ ref: 'c0', dependsOn: ['c1'] }] }, []);
    expect(graph.ref).toHaveLength(DETAIL_LIMITS.nodes);
    expect(graph.omitted.nodes).toBe(5);
    expect(graph.name[0]!.length).toBeLessThanOrEqual(DETAIL_LIMITS.text);
    expect(graph.edges).toEqual([0, 1]);
  });
});
