import { describe, expect, it } from 'vitest';
import { SEED_IDS } from '../../src/emulator/index.js';
import { maskPhoneNumber } from '../../src/emulator/handlers/authentication.js';
import { useEmulator } from './harness.js';

const U = SEED_IDS.users;
const api = useEmulator();

describe('authentication methods', () => {
  it('lists at most three phone methods with their type and SMS sign-in state', async () => {
    const reply = await api.call('GET', '/me/authentication/phoneMethods');
    expect(reply.body.value).toEqual([
      {
        id: '3179e48a-750b-4051-897c-87b9720928f7',
        phoneNumber: '+1 2065555555',
        phoneType: 'mobile',
        smsSignInState: 'ready',
      },
      {
        id: 'b6332ec1-7057-4abe-9331-3d72feddfe41',
        phoneNumber: '+1 2065555556',
        phoneType: 'alternateMobile',
        smsSignInState: 'notSupported',
      },
      {
        id: 'e37fc753-ff3b-4958-9484-eaa9425c82bc',
        phoneNumber: '+1 2065555557',
        phoneType: 'office',
        smsSignInState: 'notSupported',
      },
    ]);
    expect(reply.body['@odata.context']).toContain(`users('${U.adele}')/authentication/phoneMethods`);
  });

  it('shows an authentication administrator the numbers masked', async () => {
    const alex = await api.token({ user: 'alex@contoso.example' });
    const reply = await api.call('GET', `/users/${U.adele}/authentication/phoneMethods`, { token: alex });
    expect(reply.status).toBe(200);
    expect(reply.body.value.map((m: { phoneNumber: string }) => m.phoneNumber)).toEqual([
      '+1 XXXXXXXX55',
      '+1 XXXXXXXX56',
      '+1 XXXXXXXX57',
    ]);
    expect(maskPhoneNumber('+44 7700 900123')).toBe('+44 XXXX XXXX23');
    expect(maskPhoneNumber('2065550100')).toBe('XXXXXXXX00');
  });

  it('serves guests, refuses B2C users, and answers 404 for an unknown user', async () => {
    expect((await api.call('GET', `/users/${U.jordan}/authentication/phoneMethods`)).body.value).toHaveLength(1);
    const b2c = await api.call('GET', '/users/chris@contoso.example/authentication/phoneMethods');
    expect(b2c.status).toBe(400);
    expect(b2c.body.error.message).toMatch(/not for B2C users/);
    const unknown = await api.call('GET', '/users/nobody@contoso.example/authentication/methods');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('Request_ResourceNotFound');
  });

  it('returns only the method types this version supports, each with its own fields', async () => {
    const reply = await api.call('GET', '/me/authentication/methods');
    expect(reply.body.value).toEqual([
      {
        '@odata.type': '#vendor.graph.fido2AuthenticationMethod',
        id: '-2_GRUg2-HYz6_1YG4YRAQ2',
        displayName: 'YubiKey 5 NFC key',
        creationDateTime: '2026-02-10T06:44:09Z',
        aaGuid: 'cb69481e-8ff7-4039-93ec-0a2729a154a8',
        model: 'YubiKey 5 NFC',
        attestationCertificates: ['dbe793efdf1945e2df25d93653f1e8a3c2d6b09d'],
        attestationLevel: 'attested',
      },
      {
        '@odata.type': '#vendor.graph.deviceHelloForBusinessAuthenticationMethod',
        id: '_jpuR-TGZtk6aQCLF3BQjA2',
        displayName: "Adele's Surface Laptop",
        createdDateTime: '2026-03-27T23:12:49Z',
        keyStrength: 'normal',
      },
    ]);
  });

  it('takes no query options', async () => {
    expect((await api.call('GET', '/me/authentication/methods?$select=id')).status).toBe(400);
    expect((await api.call('GET', '/me/authentication/phoneMethods?$top=1')).status).toBe(400);
  });
});
