/** Authentication methods: phone methods (masked for an authentication administrator) and FIDO2/Hello methods. */
import type { Handler, HandlerContext } from '../context.js';
import { badRequest } from '../faults.js';
import type { JsonRecord } from '../store.js';
import { addressedUser, collection, list } from './common.js';

/** The method types this API version returns; others in the directory are left out. */
const SUPPORTED_METHOD_TYPES = new Set([
  '#vendor.graph.fido2AuthenticationMethod',
  '#vendor.graph.deviceHelloForBusinessAuthenticationMethod',
]);

/** Every digit but the last two becomes X; the country code and spacing stay, as the directory shows them. */
export function maskPhoneNumber(number: string): string {
  const country = /^\+\d{1,3} /.exec(number)?.[0] ?? '';
  const rest = number.slice(country.length);
  const digits = [...rest].filter((c) => /\d/.test(c)).length;
  let seen = 0;
  return country + rest.replace(/\d/g, (d) => (++seen > digits - 2 ? d : 'X'));
}

function methodsUser(context: HandlerContext): JsonRecord {
  const user = addressedUser(context);
  if (user.userType === 'b2c')
    throw badRequest(
      'Authentication methods are available for standard directory users and guests, not for B2C users.',
    );
  return user;
}

export const listPhoneMethods: Handler = (context) => {
  const user = methodsUser(context);
  const masked = context.principal.directoryRoles.has('authenticationAdministrator');
  const methods = list(user, 'phoneMethods').map((method) =>
    masked && typeof method.phoneNumber === 'string'
      ? { ...method, phoneNumber: maskPhoneNumber(method.phoneNumber) }
      : method,
  );
  return collection(context, `users('${String(user.id)}')/authentication/phoneMethods`, methods);
};

export const listAuthenticationMethods: Handler = (context) => {
  const user = methodsUser(context);
  const methods = list(user, 'authenticationMethods').filter((method) =>
    SUPPORTED_METHOD_TYPES.has(String(method['@odata.type'])),
  );
  return collection(context, `users('${String(user.id)}')/authentication/methods`, methods);
};
