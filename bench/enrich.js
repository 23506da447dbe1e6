// Case K: `bomwright enrich authors` on a BOM with 1,000 author contacts of 200 distinct people, against the
// emulator (a child process on loopback, its tenant grown to 200 people): wall time of the whole command, and the
// service calls it made, counted from the emulator's request log (goal: one lookup per distinct person and
// operation, under 2 s). Then the same run again, which must change nothing and not bump.
//   node bench/enrich.js    (npm run bench -- --only K)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mintToken, startEmulatorChild } from './emulator-child.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/bomwright.cjs');
const DIR = join(ROOT, 'bench/.data/enrich');
const PEOPLE = 200;
const CONTACTS = 1000;
const log = (line) => process.stderr.write(`${line}\n`);

const { DEFAULT_SEED } = await import(join(ROOT, 'dist/emulator/index.js'));

/** The default tenant and 200 more people, each with phone methods and, for some, a FIDO2 key or Windows Hello. */
function seed() {
  const tenant = structuredClone(DEFAULT_SEED);
  const template = tenant.users.find((u) => u.userPrincipalName === 'megan@contoso.example');
  for (let i = 0; i < PEOPLE; i++) {
    const alias = `person${String(i).padStart(3, '0')}`;
    const hex = i.toString(16).padStart(12, '0');
    tenant.users.push({
      ...structuredClone(template),
      id: `b0b0b0b0-0000-4000-8000-${hex}`,
      userPrincipalName: `${alias}@contoso.example`,
      mail: `${alias}@contoso.example`,
      displayName: `Person ${i}`,
      phoneMethods: [
        {
          id: `a0a0a0a0-0000-4000-8000-${hex}`,
          phoneNumber: `+1 425555${String(i).padStart(4, '0')}`,
          phoneType: i % 2 ? 'office' : 'mobile',
          smsSignInState: 'ready',
        },
      ],
      authenticationMethods: i % 3 === 0 ? [] : template.authenticationMethods,
      mailFolders: [
        { id: `${alias}-inbox`, displayName: 'Inbox', wellKnownName: 'inbox' },
        { id: `${alias}-archive`, displayName: 'Archive', wellKnownName: 'archive' },
      ],
      calendars: [{ id: `${alias}-calendar`, name: 'Calendar', isDefault: true }],
      calendarGroups: [{ id: `${alias}-calendars`, name: 'My Calendars', calendarIds: [`${alias}-calendar`] }],
    });
  }
  return tenant;
}

/** 1,000 contacts: 100 metadata authors and 900 component authors (9 per component), 200 people in all. */
function bom() {
  const person = (n) => ({
    name: `Person ${n % PEOPLE}`,
    email: `person${String(n % PEOPLE).padStart(3, '0')}@contoso.example`,
  });
  const components = [];
  for (let c = 0; c < (CONTACTS - 100) / 9; c++)
    components.push({
      type: 'library',
      name: `component-${c}`,
      version: '1.0.0',
      'bom-ref': `component-${c}`,
      authors: Array.from({ length: 9 }, (_, k) => person(100 + c * 9 + k)),
    });
  return {
    bomFormat: 'CycloneDX',
    specVersion: '1.6',
    serialNumber: 'urn:uuid:3e671687-395b-41f5-a30f-a58921a69b79',
    version: 1,
    metadata: { authors: Array.from({ length: 100 }, (_, n) => person(n)) },
    components,
  };
}

async function main() {
  log('[K] enrich authors');
  mkdirSync(DIR, { recursive: true });
  const seedFile = join(DIR, 'seed.json');
  writeFileSync(seedFile, JSON.stringify(seed()));
  const emulator = await startEmulatorChild({ args: ['--seed', seedFile], quiet: false });
  const token = await mintToken(emulator.url);
  const file = join(DIR, 'bom.json');
  const document = bom();
  const contacts = document.metadata.authors.length + document.components.reduce((n, c) => n + c.authors.length, 0);
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  const env = { ...process.env, BOMWRIGHT_SERVICE_URL: emulator.url, BOMWRIGHT_TOKEN: token };
  const run = () => {
    const before = emulator.lines.length;
    const started = performance.now();
    const result = spawnSync(process.execPath, [BIN, 'enrich', 'authors', file, '--format', 'json'], {
      env,
      encoding: 'utf8',
    });
    const ms = performance.now() - started;
    if (result.status !== 0) throw new Error(`enrich authors exited ${result.status}: ${result.stderr}`);
    return { ms, report: JSON.parse(result.stdout), before };
  };
  const first = run();
  // The emulator logs each request when its response finishes: let the last lines arrive.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const firstRequests = emulator.lines.slice(first.before).filter((l) => l.includes('/authentication/'));
  const afterFirst = readFileSync(file, 'utf8');
  const second = run();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const secondRequests = emulator.lines.slice(second.before).filter((l) => l.includes('/authentication/'));
  const unchanged = readFileSync(file, 'utf8') === afterFirst;
  emulator.child.kill('SIGTERM');
  const perPerson = new Map();
  for (const line of firstRequests) {
    const key = line.split(' ')[1];
    perPerson.set(key, (perPerson.get(key) ?? 0) + 1);
  }
  const duplicates = [...perPerson.values()].filter((n) => n > 1).length;
  const lines = [
    '### K. enrich authors',
    '',
    `A BOM with ${contacts.toLocaleString('en-US')} author contacts of ${PEOPLE} distinct people (100 metadata authors, 900 component authors), the emulator in a child process on loopback; whole \`bomwright enrich authors\` process.`,
    '',
    '| run | wall time | service calls (from the emulator log) | result |',
    '|---|---:|---:|---|',
    `| first | ${(first.ms / 1000).toFixed(2)} s (goal < 2 s) | ${firstRequests.length}: ${perPerson.size} distinct (person, operation) lookups for ${PEOPLE} people and 2 operations, ${duplicates} repeated | version ${first.report.version}, ${first.report.changed ? 'written' : 'unchanged'} |`,
    `| second | ${(second.ms / 1000).toFixed(2)} s | ${secondRequests.length} | version ${second.report.version}, ${second.report.changed ? 'written' : 'unchanged'}; file ${unchanged ? 'byte for byte the same' : 'CHANGED'} |`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

await main();
