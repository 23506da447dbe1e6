/**
 * Opaque paging tokens (`$skiptoken`, `$deltatoken`): the state of a round, sealed with an HMAC so a forged or
 * edited token is recognised and refused (400), never trusted or crashed on.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { LinkTokens } from './context.js';
import type { JsonRecord } from './store.js';

const MAX_TOKEN_LENGTH = 8192;

export function linkTokens(secret: string): LinkTokens {
  const key = Buffer.from(secret, 'base64url');
  const mac = (data: string): Buffer => createHmac('sha256', key).update(data).digest().subarray(0, 16);
  return {
    seal(payload) {
      const data = Buffer.from(JSON.stringify(payload)).toString('base64url');
      return `${data}.${mac(data).toString('base64url')}`;
    },
    open(token) {
      if (token.length > MAX_TOKEN_LENGTH) return undefined;
      const dot = token.indexOf('.');
      if (dot === -1) return undefined;
      const data = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), 'base64url');
      const expected = mac(data);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      try {
        const payload: unknown = JSON.parse(Buffer.from(data, 'base64url').toString('utf8'));
        return typeof payload === 'object' && payload !== null && !Array.isArray(payload)
          ? (payload as JsonRecord)
          : undefined;
      } catch {
        return undefined;
      }
    },
  };
}
