// Case J: the service client (`npm run bench -- --only J`, or `node bench/client.js [--quick]`), on loopback against
// the emulator in a child process.
//   J1  client overhead per call: bomwright's client (invoke) against raw undici request() on the same endpoint,
//       sequential and 32 at a time
//   J2  paging 10,000 messages through message delta (page size 100), then a second round with 100 changes
//   J3  `bomwright service list-phone-methods`, whole process, against `node -e 0`
// --baseline DIR adds the same J1 and J3 measurements of another built checkout (e.g. main), interleaved with this
// one's, so a change is compared on the same machine in the same run.
// Markdown goes to stdout, progress to stderr.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { mintToken, startEmulatorChild } from './emulator-child.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/bomwright.cjs');
const { values } = parseArgs({
  options: { quick: { type: 'boolean', default: false }, baseline: { type: 'string' } },
});
const BASELINE = values.baseline === undefined ? undefined : join(values.baseline);
const CALLS = values.quick ? 1000 : 4000;
const ROUNDS = values.quick ? 1 : 3;
const RUNS = values.quick ? 5 : 11;
const MESSAGES = 10_000;
const log = (text) => process.stderr.write(`${text}\n`);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const { createClient, createServiceClient, invoke, syncMessages } = await import(join(ROOT, 'dist/service/index.js'));

/** This process's CPU time per call of each kind at 32 in flight (µs): on a shared machine it is steadier than wall time. */
const cpu32 = {};

async function timeCalls(call, concurrency, name) {
  let next = 0;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < CALLS) await call();
    }),
  );
  const used = process.cpuUsage(cpuBefore);
  if (name !== undefined) (cpu32[name] ??= []).push((used.user + used.system) / CALLS);
  return (performance.now() - started) / CALLS;
}

async function main() {
  log('[J] the service client');
  const emulator = await startEmulatorChild();
  const token = await mintToken(emulator.url);
  const url = new URL(`${emulator.url}/v1.0/me/authentication/phoneMethods`);
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64 });
  const raw = async () => {
    const response = await request(url, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${token}`, 'client-request-id': crypto.randomUUID() },
    });
    await response.body.json();
  };
  const client = createServiceClient({ baseUrl: emulator.url, token, concurrency: 32 });
  const ours = () => invoke(client, 'listPhoneMethods');
  // The typed client: the same call, plus the response shape checked against the resource schema.
  const service = createClient({ baseUrl: emulator.url, token, concurrency: 32 });
  const typed = () => service.authenticationMethods.listPhoneMethods({}).all();
  const baselineService =
    BASELINE === undefined
      ? undefined
      : (await import(join(BASELINE, 'dist/service/index.js'))).createClient({
          baseUrl: emulator.url,
          token,
          concurrency: 32,
        });
  const baselineTyped = () => baselineService.authenticationMethods.listPhoneMethods({}).all();
  const j1 = { raw1: [], ours1: [], typed1: [], raw32: [], ours32: [], typed32: [], base1: [], base32: [] };
  for (let round = 0; round < ROUNDS; round++) {
    j1.raw1.push(await timeCalls(raw, 1));
    j1.ours1.push(await timeCalls(ours, 1));
    j1.typed1.push(await timeCalls(typed, 1));
    if (baselineService !== undefined) j1.base1.push(await timeCalls(baselineTyped, 1));
    j1.raw32.push(await timeCalls(raw, 32, 'raw'));
    j1.ours32.push(await timeCalls(ours, 32, 'invoke'));
    j1.typed32.push(await timeCalls(typed, 32, 'typed'));
    if (baselineService !== undefined) j1.base32.push(await timeCalls(baselineTyped, 32, 'baseline'));
    log(
      `  J1 round ${round + 1}: sequential ${fmt(median(j1.ours1) * 1000)} µs vs ${fmt(median(j1.raw1) * 1000)} µs raw`,
    );
  }

  // J2: 10,000 messages in a folder, then a full round and a round with 100 changes.
  log('  J2 creating 10,000 messages');
  let created = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (created < MESSAGES) {
        created++;
        await invoke(client, 'createMessage', { params: { folder: 'archive' }, body: { subject: `bench ${created}` } });
      }
    }),
  );
  const store = {
    link: undefined,
    load() {
      return this.link;
    },
    save(link) {
      this.link = link;
    },
  };
  let started = performance.now();
  const first = await syncMessages(client, { folder: 'archive', pageSize: 100, store, select: ['subject'] });
  const firstSeconds = (performance.now() - started) / 1000;
  for (let i = 0; i < 100; i++)
    await invoke(client, 'createMessage', { params: { folder: 'archive' }, body: { subject: `change ${i}` } });
  started = performance.now();
  const second = await syncMessages(client, { folder: 'archive', pageSize: 100, store });
  const secondSeconds = (performance.now() - started) / 1000;
  await client.close();
  await service.close();
  await baselineService?.close();
  await agent.close();

  // J3: a service command, whole process, against node -e 0.
  const env = { ...process.env, BOMWRIGHT_SERVICE_URL: emulator.url, BOMWRIGHT_TOKEN: token };
  const time = (args) => {
    const begin = performance.now();
    const run = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
    if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}`);
    return performance.now() - begin;
  };
  const j3 = { node: [], service: [], base: [] };
  const BASELINE_BIN = BASELINE === undefined ? undefined : join(BASELINE, 'bin/bomwright.cjs');
  time([BIN, 'service', 'list-phone-methods']);
  if (BASELINE_BIN !== undefined) time([BASELINE_BIN, 'service', 'list-phone-methods']);
  for (let i = 0; i < RUNS; i++) {
    j3.node.push(time(['-e', '0']));
    j3.service.push(time([BIN, 'service', 'list-phone-methods']));
    if (BASELINE_BIN !== undefined) j3.base.push(time([BASELINE_BIN, 'service', 'list-phone-methods']));
  }
  emulator.child.kill('SIGTERM');

  const us = (ms) => `${fmt(ms * 1000)} µs`;
  const lines = [
    '### J. The service client',
    '',
    `Loopback, the emulator in a child process; J1 is the median of ${ROUNDS} interleaved rounds of ${fmt(CALLS)} calls (GET phone methods), J3 the median of ${RUNS} interleaved runs.`,
    '',
    '| what | bomwright | reference | ratio |',
    '|---|---:|---:|---:|',
    `| J1 \`createClient\` (typed, response checked), one call at a time, per call | ${us(median(j1.typed1))} | raw undici \`request()\`: ${us(median(j1.raw1))} | ${fmt(median(j1.typed1) / median(j1.raw1), 2)}× (goal ≤ 1.2×) |`,
    `| J1 \`createClient\`, 32 at a time, per call | ${us(median(j1.typed32))} | raw undici \`request()\`: ${us(median(j1.raw32))} | ${fmt(median(j1.typed32) / median(j1.raw32), 2)}× (goal ≤ 1.2×) |`,
    `| J1 \`invoke\` (by name, no response check), one call at a time | ${us(median(j1.ours1))} | raw undici \`request()\`: ${us(median(j1.raw1))} | ${fmt(median(j1.ours1) / median(j1.raw1), 2)}× |`,
    `| J1 \`invoke\`, 32 at a time | ${us(median(j1.ours32))} | raw undici \`request()\`: ${us(median(j1.raw32))} | ${fmt(median(j1.ours32) / median(j1.raw32), 2)}× |`,
    `| J2 message delta, first round: ${fmt(first.changed.length)} messages in ${first.pages} pages of 100 | ${fmt(firstSeconds, 2)} s | goal < 2 s | |`,
    `| J2 second round: ${second.changed.length} changes | ${fmt(secondSeconds * 1000, 1)} ms | | |`,
    `| J3 \`bomwright service list-phone-methods\`, whole process | ${fmt(median(j3.service), 1)} ms | \`node -e 0\`: ${fmt(median(j3.node), 1)} ms | ${fmt(median(j3.service) / median(j3.node), 2)}× (goal ≤ 2×) |`,
    ...(BASELINE === undefined
      ? []
      : [
          `| baseline (${BASELINE}) J1 \`createClient\`, one call at a time | ${us(median(j1.base1))} | this checkout: ${us(median(j1.typed1))} | ${fmt(median(j1.typed1) / median(j1.base1), 2)}× of the baseline (${fmt(median(j1.base1) / median(j1.raw1), 2)}× raw) |`,
          `| baseline J1 \`createClient\`, 32 at a time | ${us(median(j1.base32))} | this checkout: ${us(median(j1.typed32))} | ${fmt(median(j1.typed32) / median(j1.base32), 2)}× of the baseline (${fmt(median(j1.base32) / median(j1.raw32), 2)}× raw) |`,
          `| baseline J3, whole process | ${fmt(median(j3.base), 1)} ms | this checkout: ${fmt(median(j3.service), 1)} ms | ${fmt(median(j3.service) / median(j3.base), 2)}× of the baseline |`,
        ]),
    '',
    `J1 at 32 in flight, this process's CPU time per call: raw undici ${fmt(median(cpu32.raw), 1)} µs, \`invoke\` ${fmt(median(cpu32.invoke), 1)} µs (${fmt(median(cpu32.invoke) / median(cpu32.raw), 2)}×), \`createClient\` ${fmt(median(cpu32.typed), 1)} µs (${fmt(median(cpu32.typed) / median(cpu32.raw), 2)}×)${BASELINE === undefined ? '' : `, the baseline's \`createClient\` ${fmt(median(cpu32.baseline), 1)} µs (${fmt(median(cpu32.baseline) / median(cpu32.raw), 2)}×)`}.`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

await main();
