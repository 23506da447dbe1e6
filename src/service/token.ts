/**
 * A bearer token as given by a person: pasted from an `Authorization` header ("Bearer eyJ…") or with stray
 * whitespace. The scheme word is taken off (the client adds it); anything else that cannot be an RFC 6750 b64token
 * is refused by what is wrong with it, never by showing it.
 */

/** The IANA HTTP authentication scheme registry's names (and NTLM), lower-cased. */
const SCHEMES = new Set([
  'basic',
  'concealed',
  'digest',
  'dpop',
  'gnap',
  'hoba',
  'mutual',
  'negotiate',
  'ntlm',
  'oauth',
  'privatetoken',
  'scram-sha-1',
  'scram-sha-256',
  'vapid',
]);

/** RFC 6750 §2.1 b64token. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The token without a leading `Bearer ` and surrounding whitespace; or why it cannot be one. */
export function bareToken(given: string): { token: string } | { problem: string } {
  const token = given.trim().replace(/^bearer\s+/i, '');
  if (token === '') return { problem: 'it is empty' };
  // "Bearer " with nothing after it, trimmed: the scheme word alone, not a token.
  if (/^bearer$/i.test(token)) return { problem: 'it is the scheme word alone, with no token after it' };
  if (B64TOKEN.test(token)) return { token };
  // Only a registered scheme's name is repeated: any other first word may be a piece of the token.
  const scheme = /^([A-Za-z][\w-]*)\s/.exec(token)?.[1];
  if (scheme !== undefined && SCHEMES.has(scheme.toLowerCase()))
    return { problem: `it starts with "${scheme}", a scheme other than Bearer` };
  if (/\s/.test(token)) return { problem: 'it holds whitespace' };
  return { problem: 'it holds characters a bearer token cannot (RFC 6750: letters, digits, -._~+/ and = at the end)' };
}
