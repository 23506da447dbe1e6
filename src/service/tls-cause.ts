/**
 * A failed connection whose cause is TLS, said as such: an untrusted certificate otherwise reads as "no server
 * answers" or as an OpenSSL code, and the user needs to know it is the CA to pass, not the server to start.
 */

/** OpenSSL verification codes that mean: the chain does not end at a CA this process trusts. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);

const OTHER: Readonly<Record<string, string>> = {
  CERT_HAS_EXPIRED: 'its certificate has expired',
  CERT_NOT_YET_VALID: 'its certificate is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is not for this host name',
  ERR_SSL_WRONG_VERSION_NUMBER: 'it does not speak TLS (an http:// server?)',
};

/** The error's code, or that of an error it wraps (undici and fetch put the socket's error in `cause`). */
function codes(error: unknown): string[] {
  const found: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') found.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

interface TlsCause {
  /** The OpenSSL or Node code, e.g. SELF_SIGNED_CERT_IN_CHAIN. */
  code: string;
  /** True when trusting the right CA would fix it. */
  untrusted: boolean;
  /** What is wrong with the server's side, e.g. "its certificate is not trusted". */
  reason: string;
}

/** Why a connection failed in TLS, when it did; undefined for any other failure. */
export function tlsCause(error: unknown): TlsCause | undefined {
  for (const code of codes(error)) {
    if (UNTRUSTED.has(code))
      return { code, untrusted: true, reason: 'its certificate is not signed by a CA this process trusts' };
    const reason = OTHER[code];
    if (reason !== undefined) return { code, untrusted: false, reason };
  }
  return undefined;
}
