/**
 * Kiota's typed Graph models (@microsoft/msgraph-sdk with the users package) against the emulator: they pick a
 * model's class by `#microsoft.graph.*`, so with the spec's `#vendor.graph.*` a FIDO2 method comes back as a base
 * method with its `model` in additionalData, and with `odataNamespace: 'microsoft.graph'` as a
 * Fido2AuthenticationMethod. Plain HTTP on localhost, which Kiota allows for localhost only.
 */
import { AllowedHostsValidator, BaseBearerTokenAuthenticationProvider } from '@microsoft/kiota-abstractions';
import { createGraphServiceClient, GraphRequestAdapter, type GraphServiceClient } from '@microsoft/msgraph-sdk';
import type {
  Fido2AuthenticationMethod,
  PhoneAuthenticationMethod,
  WindowsHelloForBusinessAuthenticationMethod,
} from '@microsoft/msgraph-sdk/models/index.js';
import '@microsoft/msgraph-sdk-users';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_IDS, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

async function graphClient(emulator: RunningEmulator): Promise<GraphServiceClient> {
  const base = `http://localhost:${new URL(emulator.url).port}`;
  const token = await emulator.token();
  const auth = new BaseBearerTokenAuthenticationProvider({
    getAuthorizationToken: async () => token,
    getAllowedHostsValidator: () => new AllowedHostsValidator(new Set([new URL(base).host])),
  });
  // The SDK's own HTTP client and middleware (its UrlReplaceHandler turns users/TokenToReplace into /me).
  const adapter = new GraphRequestAdapter(auth);
  adapter.baseUrl = `${base}/v1.0`;
  return createGraphServiceClient(adapter);
}

function useGraph(options: EmulatorOptions): { emulator: () => RunningEmulator; graph: () => GraphServiceClient } {
  let emulator: RunningEmulator;
  let graph: GraphServiceClient;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, ...options });
    graph = await graphClient(emulator);
  });
  afterAll(() => emulator?.close());
  return { emulator: () => emulator, graph: () => graph };
}

describe("Kiota's typed models with odataNamespace: 'microsoft.graph'", () => {
  const { emulator, graph } = useGraph({ odataNamespace: 'microsoft.graph' });

  it('reads a FIDO2 method as Fido2AuthenticationMethod and Hello as WindowsHelloForBusinessAuthenticationMethod', async () => {
    const methods = (await graph().me.authentication.methods.get())!.value!;
    const fido2 = methods.find((m) => m.odataType === '#microsoft.graph.fido2AuthenticationMethod') as
      Fido2AuthenticationMethod | undefined;
    expect(fido2).toBeDefined();
    expect(fido2!.model).toBe('YubiKey 5 NFC');
    expect(fido2!.displayName).toBe('YubiKey 5 NFC key');
    expect(fido2!.additionalData?.model).toBeUndefined();
    const hello = methods.find(
      (m) => m.odataType === '#microsoft.graph.windowsHelloForBusinessAuthenticationMethod',
    ) as WindowsHelloForBusinessAuthenticationMethod | undefined;
    expect(hello?.displayName).toEqual(expect.any(String));
    expect(hello?.additionalData?.displayName).toBeUndefined();
    // Another user's, through users/{id}.
    const megan = (await graph().users.byUserId(SEED_IDS.users.megan).authentication.methods.get())!.value!;
    expect((megan[0] as Fido2AuthenticationMethod).model).toBe('Feitian BioPass K26');
  });

  it('reads phone methods as PhoneAuthenticationMethod', async () => {
    const phones = (await graph().me.authentication.phoneMethods.get())!.value! as PhoneAuthenticationMethod[];
    expect(phones).toHaveLength(3);
    for (const phone of phones) {
      expect(phone.phoneNumber).toMatch(/^\+\d/);
      expect(['mobile', 'alternateMobile', 'office']).toContain(phone.phoneType);
    }
  });

  it('reads and writes messages through the typed models', async () => {
    const created = await graph().me.mailFolders.byMailFolderId('inbox').messages.post({ subject: 'Typed, via Kiota' });
    expect(created?.subject).toBe('Typed, via Kiota');
    const round = await graph().me.mailFolders.byMailFolderId('inbox').messages.delta.get();
    expect(round?.value?.some((message) => message.subject === 'Typed, via Kiota')).toBe(true);
    // The journal shows the namespace as the SDK saw it: what was sent is kept as sent.
    expect(emulator().requests({ method: 'POST' })[0]!.body).toEqual({ subject: 'Typed, via Kiota' });
  });

  it('answers with the real service’s type names, and accepts them in bodies and cast segments', async () => {
    const token = await emulator().token();
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const methods = await fetch(`${emulator().url}/v1.0/me/authentication/methods`, { headers });
    const text = await methods.text();
    expect(text).toContain('"@odata.type":"#microsoft.graph.fido2AuthenticationMethod"');
    expect(text).not.toContain('vendor.graph');
    const reply = await fetch(
      `${emulator().url}/v1.0/groups/${SEED_IDS.groups.release}/threads/${SEED_IDS.threads.review}/reply`,
      {
        method: 'POST',
        headers,
        body: JSON.stringify({
          post: {
            body: { contentType: 'text', content: 'With an attachment' },
            attachments: [
              {
                '@odata.type': '#microsoft.graph.fileAttachment',
                name: 'notes.txt',
                contentBytes: Buffer.from('notes').toString('base64'),
              },
            ],
          },
        }),
      },
    );
    expect(reply.status).toBe(202);
    const fixtures = await fetch(
      `${emulator().url}/v1.0/places/e5c4b3a2-a001-4b6c-8d7e-9f0a1b2c3d01/microsoft.graph.building/map/levels/e537d463-a002-4b6c-8d7e-9f0a1b2c3d02/fixtures`,
      { headers },
    );
    expect(fixtures.status).toBe(200);
    expect(((await fixtures.json()) as { '@odata.context': string })['@odata.context']).not.toContain('vendor.graph');
  });
});

describe("Kiota's typed models with the spec's namespace (the default)", () => {
  const { graph } = useGraph({});

  it('get a base method with the FIDO2 model in additionalData: why the option exists', async () => {
    const methods = (await graph().me.authentication.methods.get())!.value!;
    const fido2 = methods.find((m) => m.odataType === '#vendor.graph.fido2AuthenticationMethod') as
      Fido2AuthenticationMethod | undefined;
    expect(fido2).toBeDefined();
    expect(fido2!.model).toBeUndefined();
    expect(fido2!.additionalData?.model).toBe('YubiKey 5 NFC');
  });
});

describe('odataNamespace', () => {
  it('refuses a namespace it does not know', async () => {
    await expect(startEmulator({ odataNamespace: 'graph' as never })).rejects.toThrow(
      'odataNamespace is vendor.graph or microsoft.graph, not "graph"',
    );
  });
});
