/**
 * Certificate paths at their edges, with the conformance certificates read in place from ../shared: each
 * certificate's validity bounds and issuer checks. (The vectors' sub CA expires before their root, so the root's own
 * validity cannot be tested with them.)
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { certificatePathProblem } from '../../src/jsf/trust.js';
import { HAVE_VECTORS, KEYS } from './fixtures.js';

const certificates = (file: string) =>
  (
    readFileSync(path.join(KEYS, file), 'utf8').match(
      /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g,
    ) ?? []
  ).map((pem) => new X509Certificate(pem));

describe.runIf(HAVE_VECTORS)('certificatePathProblem', () => {
  const [leaf, subCa] = HAVE_VECTORS ? certificates('p256certpath.pem') : [];
  const [root] = HAVE_VECTORS ? certificates('rootca.pem') : [];
  const [unknown] = HAVE_VECTORS ? certificates('unknownca.pem') : [];
  const [otherLeaf] = HAVE_VECTORS ? certificates('r2048certpath.pem') : [];
  const at = (date: string) => new Date(date);
  const valid = at('2026-01-01T00:00:00Z');

  it('accepts a path that chains to a root, or that ends in the root itself', () => {
    expect(certificatePathProblem([leaf!, subCa!], [root!], valid)).toBeUndefined();
    expect(certificatePathProblem([leaf!, subCa!], [unknown!, root!], valid)).toBeUndefined();
    expect(certificatePathProblem([subCa!, root!], [root!], valid)).toBeUndefined();
  });

  it('needs a configured root, and one the path chains to', () => {
    expect(certificatePathProblem([leaf!, subCa!], [], valid)).toBe('no trust roots are configured (--trust-root)');
    expect(certificatePathProblem([leaf!, subCa!], [unknown!], valid)).toBe(
      'the certificate path does not chain to a configured trust root',
    );
  });

  it('holds each certificate to its validity, bounds included', () => {
    expect(certificatePathProblem([leaf!, subCa!], [root!], at(leaf!.validFrom))).toBeUndefined();
    expect(certificatePathProblem([leaf!, subCa!], [root!], at(leaf!.validTo))).toBeUndefined();
    const before = new Date(at(leaf!.validFrom).getTime() - 1000);
    const after = new Date(at(leaf!.validTo).getTime() + 1000);
    for (const now of [before, after])
      expect(certificatePathProblem([leaf!, subCa!], [root!], now)).toBe(
        `certificate 1 (CN=Test certificate matching p256privatekey.pem) is not valid at ${now.toISOString()}`,
      );
    const subCaExpired = new Date(at(subCa!.validTo).getTime() + 1000);
    expect(certificatePathProblem([subCa!, root!], [root!], subCaExpired)).toBe(
      `certificate 1 (CN=Test Sub CA) is not valid at ${subCaExpired.toISOString()}`,
    );
  });

  it('needs every issuer to be a CA that signed the certificate before it', () => {
    expect(certificatePathProblem([subCa!, leaf!], [root!], valid)).toBe('certificate 2 is not a CA certificate');
    expect(certificatePathProblem([leaf!, unknown!], [unknown!], valid)).toBe(
      'certificate 1 is not issued by certificate 2',
    );
    expect(certificatePathProblem([otherLeaf!, subCa!, root!], [root!], valid)).toBeUndefined();
    expect(certificatePathProblem([leaf!, root!], [root!], valid)).toBe('certificate 1 is not issued by certificate 2');
  });
});
