/**
 * The default tenant: realistic data for every family of the spec, so every operation has something to act on.
 * `bomwright emulator seed` prints it; docs/emulator.md lists its users and ids. Ids are fixed so tests and docs can
 * name them.
 */

const TENANT = '7c2b4f1e-3a5d-4e8f-9b6a-1d2c3e4f5a60';
export const SEED_IDS = {
  tenant: TENANT,
  users: {
    adele: '8b3f1a2c-1001-4d5e-9f60-7a8b9c0d1e01',
    megan: '8b3f1a2c-1002-4d5e-9f60-7a8b9c0d1e02',
    alex: '8b3f1a2c-1003-4d5e-9f60-7a8b9c0d1e03',
    lee: '8b3f1a2c-1004-4d5e-9f60-7a8b9c0d1e04',
    isaiah: '8b3f1a2c-1005-4d5e-9f60-7a8b9c0d1e05',
    patti: '8b3f1a2c-1006-4d5e-9f60-7a8b9c0d1e06',
    jordan: '8b3f1a2c-1007-4d5e-9f60-7a8b9c0d1e07',
    sam: '8b3f1a2c-1008-4d5e-9f60-7a8b9c0d1e08',
    chris: '8b3f1a2c-1009-4d5e-9f60-7a8b9c0d1e09',
  },
  servicePrincipal: '5d6e7f80-2001-4a1b-8c2d-3e4f5a6b7c01',
  app: '0e1d2c3b-2002-4a1b-8c2d-3e4f5a6b7c02',
  groups: {
    release: '2a7d9e10-3001-4b2c-8d3e-4f5a6b7c8d01',
    company: '2a7d9e10-3002-4b2c-8d3e-4f5a6b7c8d02',
    physics: '2a7d9e10-3003-4b2c-8d3e-4f5a6b7c8d03',
    buildServers: '2a7d9e10-3004-4b2c-8d3e-4f5a6b7c8d04',
    announcements: '2a7d9e10-3005-4b2c-8d3e-4f5a6b7c8d05',
  },
  teamsApps: {
    dashboard: '9f8e7d6c-4001-4b5a-8c7d-6e5f4a3b2c01',
    wiki: '9f8e7d6c-4002-4b5a-8c7d-6e5f4a3b2c02',
    personalNotes: '9f8e7d6c-4003-4b5a-8c7d-6e5f4a3b2c03',
    polls: '9f8e7d6c-4004-4b5a-8c7d-6e5f4a3b2c04',
  },
  channels: {
    general: '19:general-release@thread.tacv2',
    builds: '19:builds-release@thread.tacv2',
  },
  threads: { review: 'AAQkAGRelease42Review', suppliers: 'AAQkAGSupplierQuestions' },
  conversations: { review: 'AAQkAGConvRelease42', suppliers: 'AAQkAGConvSuppliers' },
  workbook: '01BOMWRIGHTINVENTORYXLSX000000000001',
  accessPackage: '1f2e3d4c-5001-4a6b-9c8d-7e6f5a4b3c01',
  assignmentPolicies: {
    direct: '1f2e3d4c-5002-4a6b-9c8d-7e6f5a4b3c02',
    selfService: '1f2e3d4c-5003-4a6b-9c8d-7e6f5a4b3c03',
    adminsOnly: '1f2e3d4c-5004-4a6b-9c8d-7e6f5a4b3c04',
  },
  assignmentRequests: {
    delivered: '7999249e-249e-7999-9e24-99799e249979',
    pending: '7999249e-249e-7999-9e24-99799e249980',
  },
} as const;

const U = SEED_IDS.users;
const G = SEED_IDS.groups;
const DOMAIN = 'contoso.example';

function user(
  id: string,
  alias: string,
  displayName: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id,
    userPrincipalName: `${alias}@${DOMAIN}`,
    displayName,
    mail: `${alias}@${DOMAIN}`,
    userType: 'member',
    accountType: 'workOrSchool',
    directoryRoles: [],
    phoneMethods: [],
    authenticationMethods: [],
    mailFolders: [
      { id: `${alias}-inbox`, displayName: 'Inbox', wellKnownName: 'inbox' },
      { id: `${alias}-archive`, displayName: 'Archive', wellKnownName: 'archive' },
    ],
    calendars: [{ id: `${alias}-calendar`, name: 'Calendar', isDefault: true }],
    calendarGroups: [{ id: `${alias}-calendars`, name: 'My Calendars', calendarIds: [`${alias}-calendar`] }],
    ...extra,
  };
}

const fido2 = (id: string, model: string, created: string): Record<string, unknown> => ({
  '@odata.type': '#vendor.graph.fido2AuthenticationMethod',
  id,
  displayName: `${model} key`,
  creationDateTime: created,
  aaGuid: 'cb69481e-8ff7-4039-93ec-0a2729a154a8',
  model,
  attestationCertificates: ['dbe793efdf1945e2df25d93653f1e8a3c2d6b09d'],
  attestationLevel: 'attested',
});

const hello = (id: string, device: string, created: string): Record<string, unknown> => ({
  '@odata.type': '#vendor.graph.deviceHelloForBusinessAuthenticationMethod',
  id,
  displayName: device,
  createdDateTime: created,
  keyStrength: 'normal',
});

const message = (
  id: string,
  owner: string,
  folderId: string,
  subject: string,
  received: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> => ({
  id,
  userId: owner,
  folderId,
  subject,
  body: { contentType: 'text', content: `${subject}.` },
  receivedDateTime: received,
  sentDateTime: received,
  hasAttachments: false,
  internetMessageId: `<${id}@${DOMAIN}>`,
  isRead: false,
  ...extra,
});

const fixture = (
  id: string,
  name: string,
  levelId: string,
  placeId: string | null,
  lon: number,
  lat: number,
): Record<string, unknown> => {
  const ring = [
    [lon, lat],
    [lon + 0.00004, lat],
    [lon + 0.00004, lat + 0.00002],
    [lon, lat + 0.00002],
    [lon, lat],
  ];
  const properties: Record<string, unknown> = {
    name: { en: name },
    level_id: levelId,
    display_point: { type: 'Point', coordinates: [lon + 0.00002, lat + 0.00001] },
    places_category: 'desk',
  };
  if (placeId !== null) properties.directory_id = placeId;
  return {
    id,
    placeId,
    properties: JSON.stringify({
      id,
      type: 'Feature',
      feature_type: 'fixture',
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties,
    }),
  };
};

const column = (id: string, name: string, index: number, values: unknown[]): Record<string, unknown> => ({
  id,
  name,
  index,
  values: values.map((v) => [v]),
});

export const DEFAULT_SEED = {
  tenant: { id: TENANT, displayName: 'Contoso', domain: DOMAIN, defaultUser: `adele@${DOMAIN}` },
  users: [
    user(U.adele, 'adele', 'Adele Vance', {
      jobTitle: 'Release Manager',
      directoryRoles: ['mailSystemAdministrator'],
      phoneMethods: [
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
      ],
      authenticationMethods: [
        fido2('-2_GRUg2-HYz6_1YG4YRAQ2', 'YubiKey 5 NFC', '2026-02-10T06:44:09Z'),
        hello('_jpuR-TGZtk6aQCLF3BQjA2', "Adele's Surface Laptop", '2026-03-27T23:12:49Z'),
        {
          '@odata.type': '#vendor.graph.passwordAuthenticationMethod',
          id: '28c10230-6103-485e-b985-444c60001490',
          createdDateTime: '2025-11-01T10:00:00Z',
        },
      ],
      mailFolders: [
        { id: 'adele-inbox', displayName: 'Inbox', wellKnownName: 'inbox' },
        { id: 'adele-archive', displayName: 'Archive', wellKnownName: 'archive' },
        { id: 'adele-suppliers', displayName: 'Suppliers' },
      ],
      calendars: [
        { id: 'adele-calendar', name: 'Calendar', isDefault: true },
        { id: 'adele-release-planning', name: 'Release planning', isDefault: false },
      ],
      calendarGroups: [
        { id: 'adele-calendars', name: 'My Calendars', calendarIds: ['adele-calendar'] },
        { id: 'adele-projects', name: 'Project calendars', calendarIds: ['adele-release-planning'] },
      ],
    }),
    user(U.megan, 'megan', 'Megan Bowen', {
      jobTitle: 'Security Engineer',
      phoneMethods: [
        {
          id: '7f8e9d0c-1b2a-4c3d-8e5f-6a7b8c9d0e01',
          phoneNumber: '+44 7700900123',
          phoneType: 'mobile',
          smsSignInState: 'ready',
        },
      ],
      authenticationMethods: [fido2('Fw1nXY6fQkm3hZ3Pb5D2xw2', 'Feitian BioPass K26', '2026-04-02T09:30:00Z')],
    }),
    user(U.alex, 'alex', 'Alex Wilber', {
      jobTitle: 'Identity Administrator',
      directoryRoles: ['authenticationAdministrator'],
      phoneMethods: [
        {
          id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c04',
          phoneNumber: '+1 4255550199',
          phoneType: 'office',
          smsSignInState: 'notSupported',
        },
      ],
      authenticationMethods: [hello('Hq7mYd9cS0uA1wqX8l3kzg2', "Alex's desktop", '2026-01-15T08:00:00Z')],
    }),
    user(U.lee, 'lee', 'Lee Gu', { jobTitle: 'User Administrator', directoryRoles: ['userAdministrator'] }),
    user(U.isaiah, 'isaiah', 'Isaiah Langer', {
      jobTitle: 'Device Administrator',
      directoryRoles: ['deviceManagementAdministrator'],
    }),
    user(U.patti, 'patti', 'Patti Fernandez', {
      jobTitle: 'Groups Administrator',
      directoryRoles: ['groupsAdministrator', 'teamsAdministrator'],
    }),
    user(U.jordan, 'jordan_fabrikam.example#EXT#', 'Jordan Miller (Fabrikam)', {
      mail: 'jordan@fabrikam.example',
      userType: 'guest',
      phoneMethods: [
        {
          id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a08',
          phoneNumber: '+49 15112345678',
          phoneType: 'mobile',
          smsSignInState: 'ready',
        },
      ],
    }),
    user(U.sam, 'sam', 'Sam Taylor (personal account)', { accountType: 'personal' }),
    user(U.chris, 'chris', 'Chris Green (B2C)', { userType: 'b2c' }),
  ],
  servicePrincipals: [{ id: SEED_IDS.servicePrincipal, appId: SEED_IDS.app, displayName: 'Contoso Build Agent' }],
  groups: [
    {
      id: G.release,
      displayName: 'Release Engineering',
      description: 'Builds, signs and publishes Contoso releases',
      mailNickname: 'releng',
      groupTypes: ['Unified'],
      mailEnabled: true,
      securityEnabled: false,
      visibility: 'Private',
      classification: 'Internal',
      resourceProvisioningOptions: ['Team'],
      calendarId: 'release-calendar',
      owners: [U.adele],
      members: [U.adele, U.megan, U.alex, U.lee],
    },
    {
      id: G.company,
      displayName: 'Contoso',
      description: 'Everyone at Contoso',
      mailNickname: 'contoso',
      groupTypes: ['Unified'],
      mailEnabled: true,
      securityEnabled: false,
      visibility: 'Public',
      classification: 'General',
      resourceProvisioningOptions: ['Team'],
      owners: [U.patti],
      members: [U.adele, U.megan, U.alex, U.lee, U.isaiah, U.patti],
    },
    {
      id: G.physics,
      displayName: 'Physics 101',
      description: 'Introductory physics, autumn term',
      mailNickname: 'physics101',
      groupTypes: ['Unified'],
      mailEnabled: true,
      securityEnabled: false,
      visibility: 'HiddenMembership',
      classification: 'Education',
      resourceProvisioningOptions: ['Team'],
      owners: [U.megan],
      members: [U.megan, U.lee],
    },
    {
      id: G.buildServers,
      displayName: 'Build Servers',
      description: 'Machines allowed to sign release artefacts',
      mailNickname: 'buildservers',
      groupTypes: [],
      mailEnabled: false,
      securityEnabled: true,
      visibility: 'Private',
      owners: [U.isaiah],
      members: [U.isaiah],
    },
    {
      id: G.announcements,
      displayName: 'Announcements',
      description: 'Company announcements (distribution list)',
      mailNickname: 'announcements',
      groupTypes: [],
      mailEnabled: true,
      securityEnabled: false,
      visibility: 'Public',
      owners: [],
      members: [U.adele],
    },
  ],
  threads: [
    {
      id: SEED_IDS.threads.review,
      groupId: G.release,
      conversationId: SEED_IDS.conversations.review,
      topic: 'Release 4.2 SBOM review',
      posts: [
        {
          id: 'AAMkAGPostRelease42-1',
          body: { contentType: 'text', content: 'The 4.2 SBOM is ready for review.' },
          createdDateTime: '2026-11-02T09:15:00Z',
          receivedDateTime: '2026-11-02T09:15:00Z',
          from: { emailAddress: { name: 'Adele Vance', address: `adele@${DOMAIN}` } },
          hasAttachments: false,
          attachments: [],
        },
      ],
    },
    {
      id: SEED_IDS.threads.suppliers,
      groupId: G.release,
      conversationId: SEED_IDS.conversations.suppliers,
      topic: 'Supplier questions',
      posts: [],
    },
  ],
  teamsApps: [
    {
      id: SEED_IDS.teamsApps.dashboard,
      displayName: 'SBOM Dashboard',
      configurableTabs: [
        { configurationUrl: 'https://dashboard.contoso.example/configure', scopes: ['team', 'groupChat'] },
      ],
      staticTabs: [],
    },
    {
      id: SEED_IDS.teamsApps.wiki,
      displayName: 'Release Wiki',
      configurableTabs: [],
      staticTabs: [
        {
          entityId: 'release-wiki',
          name: 'Release wiki',
          contentUrl: 'https://wiki.contoso.example/release',
          websiteUrl: 'https://wiki.contoso.example/release',
          scopes: ['team'],
        },
      ],
    },
    {
      id: SEED_IDS.teamsApps.personalNotes,
      displayName: 'Personal Notes',
      configurableTabs: [],
      staticTabs: [
        { entityId: 'notes', name: 'Notes', contentUrl: 'https://notes.contoso.example', scopes: ['personal'] },
      ],
    },
    {
      id: SEED_IDS.teamsApps.polls,
      displayName: 'Polls',
      configurableTabs: [{ configurationUrl: 'https://polls.contoso.example/configure', scopes: ['team'] }],
      staticTabs: [],
    },
  ],
  teams: [
    {
      id: G.release,
      displayName: 'Release Engineering',
      specialization: 'none',
      isOrganizationWide: false,
      settings: {
        memberSettings: { allowCreateUpdateChannels: true },
        messagingSettings: { allowUserEditMessages: true },
        funSettings: { allowGiphy: false },
      },
      installedApps: [SEED_IDS.teamsApps.dashboard, SEED_IDS.teamsApps.wiki, SEED_IDS.teamsApps.personalNotes],
      members: [
        { id: 'mem-release-adele', userId: U.adele, roles: ['owner'] },
        { id: 'mem-release-megan', userId: U.megan, roles: [] },
        { id: 'mem-release-alex', userId: U.alex, roles: [] },
        { id: 'mem-release-lee', userId: U.lee, roles: [] },
      ],
      channels: [
        {
          id: SEED_IDS.channels.general,
          displayName: 'General',
          description: 'Release engineering',
          membershipType: 'standard',
          messageCount: 42,
          tabs: [],
        },
        {
          id: SEED_IDS.channels.builds,
          displayName: 'Builds',
          description: 'Nightly and release builds',
          membershipType: 'standard',
          messageCount: 310,
          tabs: [
            {
              id: 'b8f3c1d2-6001-4e5f-8a9b-0c1d2e3f4a01',
              displayName: 'SBOM dashboard',
              teamsAppId: SEED_IDS.teamsApps.dashboard,
              configuration: {
                entityId: 'release-4.2',
                contentUrl: 'https://dashboard.contoso.example/tab?release=4.2',
                websiteUrl: 'https://dashboard.contoso.example/release/4.2',
                removeUrl: 'https://dashboard.contoso.example/remove',
              },
              webUrl: 'https://teams.bomwright.invalid/l/channel/19%3abuilds-release%40thread.tacv2/tab%3a%3ab8f3c1d2',
            },
          ],
        },
      ],
    },
    {
      id: G.company,
      displayName: 'Contoso',
      specialization: 'none',
      isOrganizationWide: true,
      settings: {},
      installedApps: [],
      members: [
        { id: 'mem-company-patti', userId: U.patti, roles: ['owner'] },
        { id: 'mem-company-adele', userId: U.adele, roles: [] },
      ],
      channels: [
        {
          id: '19:general-company@thread.tacv2',
          displayName: 'General',
          description: 'Everyone',
          membershipType: 'standard',
          messageCount: 5,
          tabs: [],
        },
      ],
    },
    {
      id: G.physics,
      displayName: 'Physics 101',
      specialization: 'educationClass',
      isOrganizationWide: false,
      settings: { memberSettings: { allowCreateUpdateChannels: false } },
      installedApps: [SEED_IDS.teamsApps.polls],
      members: [
        { id: 'mem-physics-megan', userId: U.megan, roles: ['owner'] },
        { id: 'mem-physics-lee', userId: U.lee, roles: [] },
      ],
      channels: [
        {
          id: '19:general-physics@thread.tacv2',
          displayName: 'General',
          description: 'Class',
          membershipType: 'standard',
          messageCount: 12,
          tabs: [],
        },
      ],
    },
  ],
  messages: [
    message('AAMkAGMsgAdele0001', U.adele, 'adele-inbox', 'Supplier SBOM for libfoo 2.3', '2026-11-01T08:00:00Z'),
    message('AAMkAGMsgAdele0002', U.adele, 'adele-inbox', 'Signed release manifest', '2026-11-02T09:30:00Z', {
      hasAttachments: true,
    }),
    message('AAMkAGMsgAdele0003', U.adele, 'adele-inbox', 'Invitation: Weekly SBOM sync', '2026-11-03T10:00:00Z', {
      eventId: 'evt-adele-weekly',
    }),
    message('AAMkAGMsgAdele0004', U.adele, 'adele-inbox', 'Licence question from legal', '2026-11-04T11:45:00Z'),
    message('AAMkAGMsgAdele0005', U.adele, 'adele-inbox', 'CVE-2026-1234 triage', '2026-11-05T14:20:00Z'),
    message('AAMkAGMsgAdele0006', U.adele, 'adele-archive', 'Release 4.1 retrospective', '2026-10-01T16:00:00Z'),
    message('AAMkAGMsgMegan0001', U.megan, 'megan-inbox', 'Invitation: Release 4.2 go/no-go', '2026-11-06T09:00:00Z', {
      eventId: 'evt-megan-gonogo',
    }),
  ],
  events: [
    {
      id: 'evt-adele-gonogo',
      owner: `users/${U.adele}`,
      calendarId: 'adele-calendar',
      iCalUId: 'ical-gonogo-42',
      type: 'singleInstance',
      subject: 'Release 4.2 go/no-go',
      body: { contentType: 'text', content: 'Decide whether 4.2 ships.' },
      start: { dateTime: '2026-11-20T15:00:00', timeZone: 'Pacific Standard Time' },
      end: { dateTime: '2026-11-20T15:30:00', timeZone: 'Pacific Standard Time' },
      organizer: { emailAddress: { name: 'Adele Vance', address: `adele@${DOMAIN}` } },
      attendees: [
        {
          emailAddress: { name: 'Megan Bowen', address: `megan@${DOMAIN}` },
          type: 'required',
          status: { response: 'accepted' },
        },
      ],
      organizerEventId: 'evt-adele-gonogo',
    },
    {
      id: 'evt-megan-gonogo',
      owner: `users/${U.megan}`,
      calendarId: 'megan-calendar',
      iCalUId: 'ical-gonogo-42',
      type: 'singleInstance',
      subject: 'Release 4.2 go/no-go',
      body: { contentType: 'text', content: 'Decide whether 4.2 ships.' },
      start: { dateTime: '2026-11-20T15:00:00', timeZone: 'Pacific Standard Time' },
      end: { dateTime: '2026-11-20T15:30:00', timeZone: 'Pacific Standard Time' },
      organizer: { emailAddress: { name: 'Adele Vance', address: `adele@${DOMAIN}` } },
      attendees: [],
      organizerEventId: 'evt-adele-gonogo',
    },
    {
      id: 'evt-sam-gonogo',
      owner: `users/${U.sam}`,
      calendarId: 'sam-calendar',
      iCalUId: 'ical-gonogo-42',
      type: 'singleInstance',
      subject: 'Release 4.2 go/no-go',
      start: { dateTime: '2026-11-20T15:00:00', timeZone: 'Pacific Standard Time' },
      end: { dateTime: '2026-11-20T15:30:00', timeZone: 'Pacific Standard Time' },
      organizer: { emailAddress: { name: 'Adele Vance', address: `adele@${DOMAIN}` } },
      attendees: [],
      organizerEventId: 'evt-adele-gonogo',
    },
    {
      id: 'evt-adele-weekly',
      owner: `users/${U.adele}`,
      calendarId: 'adele-calendar',
      iCalUId: 'ical-weekly-sync',
      type: 'seriesMaster',
      subject: 'Weekly SBOM sync',
      body: { contentType: 'text', content: 'Review new findings.' },
      start: { dateTime: '2026-11-02T10:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-11-02T10:30:00', timeZone: 'UTC' },
      organizer: { emailAddress: { name: 'Adele Vance', address: `adele@${DOMAIN}` } },
      attendees: [],
      organizerEventId: 'evt-adele-weekly',
    },
    ...['2026-11-09', '2026-11-16'].map((day, i) => ({
      id: `evt-adele-weekly-occ${i + 1}`,
      owner: `users/${U.adele}`,
      calendarId: 'adele-calendar',
      seriesMasterId: 'evt-adele-weekly',
      type: 'occurrence',
      subject: 'Weekly SBOM sync',
      start: { dateTime: `${day}T10:00:00`, timeZone: 'UTC' },
      end: { dateTime: `${day}T10:30:00`, timeZone: 'UTC' },
    })),
    {
      id: 'evt-adele-weekly-exc1',
      owner: `users/${U.adele}`,
      calendarId: 'adele-calendar',
      seriesMasterId: 'evt-adele-weekly',
      type: 'exception',
      subject: 'Weekly SBOM sync (moved)',
      start: { dateTime: '2026-11-23T11:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-11-23T11:30:00', timeZone: 'UTC' },
    },
    {
      id: 'evt-adele-planning',
      owner: `users/${U.adele}`,
      calendarId: 'adele-release-planning',
      type: 'singleInstance',
      subject: 'Plan release 4.3',
      start: { dateTime: '2026-12-01T09:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-12-01T10:00:00', timeZone: 'UTC' },
    },
    {
      id: 'evt-release-freeze',
      owner: `groups/${G.release}`,
      calendarId: 'release-calendar',
      type: 'singleInstance',
      subject: 'Code freeze 4.2',
      start: { dateTime: '2026-11-18T00:00:00', timeZone: 'UTC' },
      end: { dateTime: '2026-11-19T00:00:00', timeZone: 'UTC' },
    },
  ],
  workbooks: [
    {
      id: SEED_IDS.workbook,
      ownerId: U.adele,
      name: 'Inventory.xlsx',
      path: 'Documents/Inventory.xlsx',
      worksheets: [
        { id: '{00000000-0001-0000-0000-000000000000}', name: 'Components', position: 0 },
        { id: '{00000000-0002-0000-0000-000000000000}', name: 'Summary', position: 1 },
      ],
      names: [{ name: 'Header', worksheetId: '{00000000-0001-0000-0000-000000000000}', address: 'A1:F1' }],
      tables: [
        {
          id: '1',
          name: 'ComponentTable',
          worksheetId: '{00000000-0001-0000-0000-000000000000}',
          address: 'A1:F5',
          columns: [
            column('1', 'name', 0, ['name', 'libfoo', 'libbar', 'tinyjson', 'fastzip']),
            column('2', 'version', 1, ['version', '2.3.0', '1.0.4', '0.9.1', '3.2.2']),
            column('3', 'type', 2, ['type', 'library', 'library', 'library', 'library']),
            column('4', 'purl', 3, [
              'purl',
              'pkg:npm/libfoo@2.3.0',
              'pkg:npm/libbar@1.0.4',
              'pkg:npm/tinyjson@0.9.1',
              'pkg:npm/fastzip@3.2.2',
            ]),
            column('5', 'license', 4, ['license', 'MIT', 'Apache-2.0', 'not a licence', 'BSD-3-Clause']),
            column('6', 'supplier', 5, ['supplier', 'Foo Ltd', 'Bar GmbH', '', 'Zip Inc']),
          ],
        },
      ],
      charts: [
        {
          id: '{CHART-0001}',
          name: 'LicenseChart',
          worksheetId: '{00000000-0002-0000-0000-000000000000}',
          series: [
            {
              id: '0',
              name: 'Licences',
              points: [
                { id: '0', value: 12 },
                { id: '1', value: 7 },
                { id: '2', value: 3 },
                { id: '3', value: 1 },
              ],
            },
          ],
        },
      ],
      borders: {},
    },
  ],
  accessPackages: [
    {
      id: SEED_IDS.accessPackage,
      displayName: 'Release approvers',
      description: 'People who approve a release for publication',
      catalogId: 'c0ffee00-5000-4a6b-9c8d-7e6f5a4b3c00',
    },
  ],
  assignmentPolicies: [
    {
      id: SEED_IDS.assignmentPolicies.direct,
      accessPackageId: SEED_IDS.accessPackage,
      displayName: 'Direct assignment with approval',
      description: 'Requests need a manager approval and a justification',
      allowedRequestors: [U.adele, U.megan],
      requirements: {
        isApprovalRequiredForAdd: true,
        isApprovalRequiredForUpdate: true,
        allowCustomAssignmentSchedule: false,
        isRequestorJustificationRequired: true,
        questions: [],
        schedule: {
          startDateTime: null,
          expiration: { type: 'afterDuration', duration: 'P90D', endDateTime: null },
          recurrence: null,
        },
      },
    },
    {
      id: SEED_IDS.assignmentPolicies.selfService,
      accessPackageId: SEED_IDS.accessPackage,
      displayName: 'Self-service for members',
      description: 'Any member may request',
      allowedRequestors: 'allMemberUsers',
      requirements: null,
    },
    {
      id: SEED_IDS.assignmentPolicies.adminsOnly,
      accessPackageId: SEED_IDS.accessPackage,
      displayName: 'Administrators only',
      description: 'Requests by the groups administrator',
      allowedRequestors: [U.patti],
      requirements: null,
    },
  ],
  assignmentRequests: [
    {
      id: SEED_IDS.assignmentRequests.delivered,
      accessPackageId: SEED_IDS.accessPackage,
      requestorId: U.megan,
      requestType: 'adminAdd',
      state: 'delivered',
      status: 'Delivered',
      createdDateTime: '2026-11-10T22:55:11.623Z',
      completedDateTime: '2026-11-11T22:55:11.623Z',
      schedule: {
        '@odata.type': 'vendor.graph.entitlementManagementSchedule',
        startDateTime: '2026-11-11T22:55:11.623Z',
        expiration: { type: 'noExpiration' },
        recurrence: null,
      },
      assignment: {
        id: '44b6ddd0-5005-4a6b-9c8d-7e6f5a4b3c05',
        state: 'delivered',
        status: 'Delivered',
        expiredDateTime: null,
        schedule: { startDateTime: '2026-11-11T22:55:11.623Z', expiration: { type: 'noExpiration' }, recurrence: null },
        targetId: U.megan,
      },
    },
    {
      id: SEED_IDS.assignmentRequests.pending,
      accessPackageId: SEED_IDS.accessPackage,
      requestorId: U.lee,
      requestType: 'userAdd',
      state: 'pendingApproval',
      status: 'PendingApproval',
      createdDateTime: '2026-11-20T08:00:00Z',
      completedDateTime: null,
      schedule: {
        '@odata.type': 'vendor.graph.entitlementManagementSchedule',
        startDateTime: null,
        expiration: { type: 'afterDuration', duration: 'P90D' },
        recurrence: null,
      },
      assignment: null,
    },
  ],
  homeRealmDiscoveryPolicies: [
    {
      id: '8f865ec2-2b02-405f-91e7-cb580dfdfa56',
      deletedDateTime: null,
      definition: [
        '{"HomeRealmDiscoveryPolicy":{"AccelerateToFederatedDomain":true,"PreferredDomain":"federated.contoso.example","AlternateIdLogin":{"Enabled":true}}}',
      ],
      displayName: 'Contoso federated sign-in',
      isOrganizationDefault: true,
      appliesTo: [],
    },
    {
      id: '6c2a4e8b-7001-4d3f-9a1b-2c3d4e5f6a02',
      deletedDateTime: null,
      definition: [
        '{"HomeRealmDiscoveryPolicy":{"AccelerateToFederatedDomain":false,"AlternateIdLogin":{"Enabled":false}}}',
      ],
      displayName: 'Build agent sign-in',
      isOrganizationDefault: false,
      appliesTo: [{ '@odata.type': '#vendor.graph.servicePrincipal', id: SEED_IDS.servicePrincipal }],
    },
  ],
  labelCategories: [
    {
      id: '0d4c3b2a-8001-4e5f-9a6b-7c8d9e0f1a01',
      displayName: 'Department',
      subcategories: [
        {
          id: '2ac39915-dbeb-e933-82e2-92b981835fa0',
          displayName: 'Engineering',
          createdBy: { user: { id: U.patti, displayName: 'Patti Fernandez' } },
          createdDateTime: '2026-03-24T02:09:08Z',
        },
        {
          id: '3bd4aa26-ecfc-f044-93f3-a3ca92946fb1',
          displayName: 'Finance',
          createdBy: { user: { id: U.patti, displayName: 'Patti Fernandez' } },
          createdDateTime: '2026-03-24T02:10:00Z',
        },
      ],
    },
    {
      id: '0d4c3b2a-8002-4e5f-9a6b-7c8d9e0f1a02',
      displayName: 'Document type',
      subcategories: [
        {
          id: '4ce5bb37-fd0d-0155-a404-b4dba3a580c2',
          displayName: 'Vendor Invoice',
          createdBy: { user: { id: U.patti, displayName: 'Patti Fernandez' } },
          createdDateTime: '2026-04-01T12:00:00Z',
        },
      ],
    },
  ],
  ediscoveryCases: [
    {
      id: 'b0073e4e-9001-4f6a-8b7c-9d0e1f2a3b01',
      displayName: 'Supplier audit 2026',
      custodians: [
        {
          id: '0053a61a-9002-4f6a-8b7c-9d0e1f2a3b02',
          userId: U.megan,
          userSources: [{ id: '2b4ff8f1-9003-4f6a-8b7c-9d0e1f2a3b03', email: `megan@${DOMAIN}` }],
        },
        {
          id: '0053a61a-9004-4f6a-8b7c-9d0e1f2a3b04',
          userId: U.adele,
          userSources: [{ id: '2b4ff8f1-9005-4f6a-8b7c-9d0e1f2a3b05', email: `adele@${DOMAIN}` }],
        },
      ],
      searches: [{ id: 'c61a5860-9006-4f6a-8b7c-9d0e1f2a3b06', displayName: 'Invoices 2026', custodianSources: [] }],
    },
  ],
  places: [
    {
      id: 'e5c4b3a2-a001-4b6c-8d7e-9f0a1b2c3d01',
      type: 'building',
      displayName: 'Building 40',
      map: {
        id: 'map-building-40',
        levels: [
          {
            id: 'e537d463-a002-4b6c-8d7e-9f0a1b2c3d02',
            displayName: 'Level 1',
            fixtures: [
              fixture(
                '005eb3b8-a003-4b6c-8d7e-9f0a1b2c3d03',
                'Desk 1.01',
                'e537d463-a002-4b6c-8d7e-9f0a1b2c3d02',
                null,
                -121.8889415,
                37.3295396,
              ),
              fixture(
                '005eb3b8-a004-4b6c-8d7e-9f0a1b2c3d04',
                'Desk 1.02',
                'e537d463-a002-4b6c-8d7e-9f0a1b2c3d02',
                '67149ec1-a005-4b6c-8d7e-9f0a1b2c3d05',
                -121.8888415,
                37.3295396,
              ),
            ],
          },
        ],
      },
    },
    { id: 'e5c4b3a2-a006-4b6c-8d7e-9f0a1b2c3d06', type: 'building', displayName: 'Building 41 (no map)', map: null },
  ],
  plannerTasks: [
    {
      id: '01gzSlKkIUSUl6DF_EilrmQAKDhh',
      title: 'Publish the 4.2 SBOM',
      groupId: G.release,
      progressTaskBoardFormat: { orderHint: '85752723360752+' },
    },
    {
      id: '02hAtmLlJVTVm7EG_FjmsnRBLEii',
      title: 'Rotate build signing keys',
      groupId: G.buildServers,
      progressTaskBoardFormat: { orderHint: '8585269241124302458P{' },
    },
  ],
  engagementRoles: [
    {
      id: 'ec759127-b001-4c5d-8e6f-7a8b9c0d1e01',
      displayName: 'Network Admin',
      members: [
        { id: 'f3e2d1c0-b002-4c5d-8e6f-7a8b9c0d1e02', userId: U.megan },
        { id: 'f3e2d1c0-b003-4c5d-8e6f-7a8b9c0d1e03', userId: U.alex },
      ],
    },
  ],
  printTaskDefinitions: [
    {
      id: 'fab143fd-c001-4d5e-8f6a-7b8c9d0e1f01',
      displayName: 'Release label printing',
      createdBy: { appId: SEED_IDS.app, displayName: 'Contoso Build Agent' },
    },
    {
      id: 'fab143fd-c002-4d5e-8f6a-7b8c9d0e1f02',
      displayName: 'Audit trail printing',
      createdBy: { appId: SEED_IDS.app, displayName: 'Contoso Build Agent' },
    },
  ],
  cloudPcs: [
    {
      id: '662009bc-d001-4e5f-8a6b-7c8d9e0f1a01',
      displayName: 'CPC-adele-01',
      userPrincipalName: `adele@${DOMAIN}`,
      status: 'provisioned',
      snapshots: [
        { id: 'A00009UV000_93aff428-61f2-467f-a879-1102af6fd4a8', createdDateTime: '2026-11-20T02:00:00Z' },
        { id: 'A00009UV000_b7c5a1d2-72e3-478f-b98a-2213bf7fe5b9', createdDateTime: '2026-11-21T02:00:00Z' },
      ],
      restores: [],
    },
  ],
  driveItems: [
    { id: '123456!87', name: 'release-4.2-sbom.json', ownerId: U.adele },
    { id: '123456!88', name: 'release-4.1-sbom.json', ownerId: U.adele },
    { id: '654321!12', name: 'megan-notes.txt', ownerId: U.megan },
  ],
  bundles: [{ id: '123456!90', name: 'Release SBOMs', ownerId: U.adele, children: ['123456!88'] }],
} as const;
