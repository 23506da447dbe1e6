import { describe, expect, it } from 'vitest';
import { tlsCause } from '../../src/service/tls-cause.js';

const failure = (code: string, depth = 0): unknown => {
  let error: unknown = Object.assign(new Error('socket'), { code });
  for (let i = 0; i < depth; i++) error = new TypeError('fetch failed', { cause: error });
  return error;
};

describe('a TLS cause of a failed connection', () => {
  it('is an untrusted certificate for every verification code that trusting the right CA would fix', () => {
    for (const code of [
      'DEPTH_ZERO_SELF_SIGNED_CERT',
      'SELF_SIGNED_CERT_IN_CHAIN',
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      'UNABLE_TO_GET_ISSUER_CERT',
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
      'CERT_UNTRUSTED',
      'CERT_SIGNATURE_FAILURE',
    ])
      expect(tlsCause(failure(code)), code).toEqual({
        code,
        untrusted: true,
        reason: 'its certificate is not signed by a CA this process trusts',
      });
  });

  it('names other TLS problems without the CA hint, and nothing else as TLS', () => {
    expect(tlsCause(failure('CERT_HAS_EXPIRED'))).toEqual({
      code: 'CERT_HAS_EXPIRED',
      untrusted: false,
      reason: 'its certificate has expired',
    });
    expect(tlsCause(failure('ERR_TLS_CERT_ALTNAME_INVALID'))?.reason).toBe('its certificate is not for this host name');
    expect(tlsCause(failure('ERR_SSL_WRONG_VERSION_NUMBER'))?.reason).toBe(
      'it does not speak TLS (an http:// server?)',
    );
    for (const other of [failure('ECONNREFUSED'), failure(''), new Error('x'), 'text', null, undefined, 5])
      expect(tlsCause(other)).toBeUndefined();
  });

  it('looks through wrapping errors (fetch, undici) four deep, not further', () => {
    expect(tlsCause(failure('SELF_SIGNED_CERT_IN_CHAIN', 4))?.code).toBe('SELF_SIGNED_CERT_IN_CHAIN');
    expect(tlsCause(failure('SELF_SIGNED_CERT_IN_CHAIN', 5))).toBeUndefined();
    // A cycle of causes ends at the bound.
    const a: { code?: string; cause?: unknown } = {};
    a.cause = a;
    expect(tlsCause(a)).toBeUndefined();
  });
});
