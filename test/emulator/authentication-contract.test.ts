/**
 * The authentication methods contract: who sees phone numbers masked and how (country code and spacing kept, the
 * last two digits shown), the three-method limit, which method types are listed, and the exact refusals.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SEED, SEED_IDS, startEmulator } from '../../src/emulator/index.js';
import { maskPhoneNumber } from '../../src/emulator/handlers/authentication.js';
import { useEmulator } from './harness.js';

const U = SEED_IDS.users;
const api = useEmulator();

const numbers = (body: { value: { phoneNumber: string }[] }): string[] => body.value.map((m) => m.phoneNumber);

describe('masking of phone numbers', () => {
  it('keeps a country code of one to three digits and its space, masks every other digit but the last two', () => {
    expect(maskPhoneNumber('+1 2065555555')).toBe('+1 XXXXXXXX55');
    expect(maskPhoneNumber('+44 7700900123')).toBe('+44 XXXXXXXX23');
    expect(maskPhoneNumber('+491 5112345678')).toBe('+491 XXXXXXXX78');
    // Four digits are no country code: the whole number is masked, the spacing kept.
    expect(maskPhoneNumber('+4915 112345678')).toBe('+XXXX XXXXXXX78');
    // Without the space after it there is no country code to keep either.
    expect(maskPhoneNumber('+12065550100')).toBe('+XXXXXXXXX00');
    expect(maskPhoneNumber('+1 425 555 0199')).toBe('+1 XXX XXX XX99');
    // A country code is kept only at the start of the number.
    expect(maskPhoneNumber('555 +1 2345')).toBe('XXX +X XX45');
  });

  it('shows two digits or fewer as they are, and masks only the first of three', () => {
    expect(maskPhoneNumber('+1 42')).toBe('+1 42');
    expect(maskPhoneNumber('+1 4')).toBe('+1 4');
    expect(maskPhoneNumber('+1 425')).toBe('+1 X25');
    expect(maskPhoneNumber('')).toBe('');
  });
});

describe('listing phone methods', () => {
  it('shows a caller who is not an authentication administrator the numbers in full, with every field', async () => {
    const reply = await api.call('GET', `/users/${U.megan}/authentication/phoneMethods`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#users('${U.megan}')/authentication/phoneMethods`,
      value: [
        {
          id: '7f8e9d0c-1b2a-4c3d-8e5f-6a7b8c9d0e01',
          phoneNumber: '+44 7700900123',
          phoneType: 'mobile',
          smsSignInState: 'ready',
        },
      ],
    });
  });

  it('masks the numbers for an authentication administrator, whoever the user, and changes no other field', async () => {
    const alex = await api.token({ user: 'alex@contoso.example' });
    const megan = await api.call('GET', `/users/megan@contoso.example/authentication/phoneMethods`, { token: alex });
    expect(megan.body.value).toEqual([
      {
        id: '7f8e9d0c-1b2a-4c3d-8e5f-6a7b8c9d0e01',
        phoneNumber: '+44 XXXXXXXX23',
        phoneType: 'mobile',
        smsSignInState: 'ready',
      },
    ]);
    expect(megan.body['@odata.context']).toBe(
      `${api.emulator.url}/v1.0/$metadata#users('${U.megan}')/authentication/phoneMethods`,
    );
    const own = await api.call('GET', '/me/authentication/phoneMethods', { token: alex });
    expect(numbers(own.body)).toEqual(['+1 XXXXXXXX99']);
    const guest = await api.call('GET', `/users/${U.jordan}/authentication/phoneMethods`, { token: alex });
    expect(numbers(guest.body)).toEqual(['+49 XXXXXXXXX78']);
  });

  it('decides by the directory role the token carries, not by the user it names', async () => {
    const adeleAsAdmin = await api.token({
      user: 'adele@contoso.example',
      directoryRoles: ['authenticationAdministrator'],
    });
    const masked = await api.call('GET', '/me/authentication/phoneMethods', { token: adeleAsAdmin });
    expect(numbers(masked.body)).toEqual(['+1 XXXXXXXX55', '+1 XXXXXXXX56', '+1 XXXXXXXX57']);
    // Another administrator role does not mask.
    const adeleAsMailAdmin = await api.token({
      user: 'adele@contoso.example',
      directoryRoles: ['mailSystemAdministrator', 'userAdministrator'],
    });
    const plain = await api.call('GET', '/me/authentication/phoneMethods', { token: adeleAsMailAdmin });
    expect(numbers(plain.body)).toEqual(['+1 2065555555', '+1 2065555556', '+1 2065555557']);
  });

  it('serves an application token the numbers in full', async () => {
    const app = await api.token({ app: SEED_IDS.app });
    const reply = await api.call('GET', `/users/${U.alex}/authentication/phoneMethods`, { token: app });
    expect(reply.status, reply.text).toBe(200);
    expect(numbers(reply.body)).toEqual(['+1 4255550199']);
  });

  it('answers an empty collection for a user without phone methods', async () => {
    const reply = await api.call('GET', `/users/${U.lee}/authentication/phoneMethods`);
    expect(reply.status).toBe(200);
    expect(reply.body.value).toEqual([]);
  });
});

describe('at most three phone methods per user', () => {
  const withPhones = (count: number): unknown => {
    const seed = structuredClone(DEFAULT_SEED) as unknown as {
      users: { id: string; phoneMethods: Record<string, string>[] }[];
    };
    const lee = seed.users.find((u) => u.id === U.lee)!;
    lee.phoneMethods = Array.from({ length: count }, (_, i) => ({
      id: `phone-${i}`,
      phoneNumber: `+1 42555501${String(i).padStart(2, '0')}`,
      phoneType: 'mobile',
      smsSignInState: 'notSupported',
    }));
    return seed;
  };

  it('lists three methods of a tenant that has three, and refuses a tenant with four', async () => {
    const three = await startEmulator({ port: 0, seed: withPhones(3) });
    try {
      const token = await three.token();
      const response = await fetch(`${three.url}/v1.0/users/${U.lee}/authentication/phoneMethods`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { value: { id: string; phoneNumber: string }[] };
      expect(body.value.map((m) => [m.id, m.phoneNumber])).toEqual([
        ['phone-0', '+1 4255550100'],
        ['phone-1', '+1 4255550101'],
        ['phone-2', '+1 4255550102'],
      ]);
    } finally {
      await three.close();
    }
    await expect(startEmulator({ port: 0, seed: withPhones(4) })).rejects.toThrow(
      /phoneMethods: must NOT have more than 3 items/,
    );
  });
});

describe('listing authentication methods', () => {
  it('lists FIDO2 and Windows Hello methods with their own fields, and leaves other types out', async () => {
    const megan = await api.call('GET', `/users/${U.megan}/authentication/methods`);
    expect(megan.body).toEqual({
      '@odata.context': `${api.emulator.url}/v1.0/$metadata#users('${U.megan}')/authentication/methods`,
      value: [
        {
          '@odata.type': '#vendor.graph.fido2AuthenticationMethod',
          id: 'Fw1nXY6fQkm3hZ3Pb5D2xw2',
          displayName: 'Feitian BioPass K26 key',
          creationDateTime: '2026-04-02T09:30:00Z',
          aaGuid: 'cb69481e-8ff7-4039-93ec-0a2729a154a8',
          model: 'Feitian BioPass K26',
          attestationCertificates: ['dbe793efdf1945e2df25d93653f1e8a3c2d6b09d'],
          attestationLevel: 'attested',
        },
      ],
    });
    const alex = await api.call('GET', `/users/alex@contoso.example/authentication/methods`);
    expect(alex.body.value).toEqual([
      {
        '@odata.type': '#vendor.graph.deviceHelloForBusinessAuthenticationMethod',
        id: 'Hq7mYd9cS0uA1wqX8l3kzg2',
        displayName: "Alex's desktop",
        createdDateTime: '2026-01-15T08:00:00Z',
        keyStrength: 'normal',
      },
    ]);
    const adele = await api.call('GET', '/me/authentication/methods');
    expect(adele.body.value.map((m: { '@odata.type': string }) => m['@odata.type'])).toEqual([
      '#vendor.graph.fido2AuthenticationMethod',
      '#vendor.graph.deviceHelloForBusinessAuthenticationMethod',
    ]);
    expect(adele.body['@odata.context']).toBe(
      `${api.emulator.url}/v1.0/$metadata#users('${U.adele}')/authentication/methods`,
    );
    expect((await api.call('GET', `/users/${U.lee}/authentication/methods`)).body.value).toEqual([]);
  });
});

describe('refusals', () => {
  it('refuses a B2C user on both lists with 400 BadRequest and the reason', async () => {
    for (const list of ['phoneMethods', 'methods']) {
      const reply = await api.call('GET', `/users/${U.chris}/authentication/${list}`);
      expect(reply.status, list).toBe(400);
      expect(reply.body.error.code).toBe('BadRequest');
      expect(reply.body.error.message).toBe(
        'Authentication methods are available for standard directory users and guests, not for B2C users.',
      );
    }
  });

  it('answers 404 Request_ResourceNotFound naming the unknown user', async () => {
    const reply = await api.call('GET', '/users/nobody@contoso.example/authentication/phoneMethods');
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('Request_ResourceNotFound');
    expect(reply.body.error.message).toContain("'nobody@contoso.example'");
  });
});
