// Case L: the emulator over HTTPS. L1, the time from starting `bomwright emulator --tls` to the first successful
// call of the Graph JS SDK (the emulator a child process; first start, when the certificate is made, and a restart,
// when it is kept). L2, the read load of case I1 (GET phone methods, 50 connections, keep-alive, autocannon in this
// process) over HTTP and over HTTPS, interleaved, in one run.
//   node bench/tls.js [--quick]    (npm run bench -- --only L)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { Agent } from 'undici';
import { mintToken, startEmulatorChild } from './emulator-child.js';

// The load generator and the Graph SDK are test tools (test/package.json, installed by npm run bench).
const tool = createRequire(new URL('../test/package.json', import.meta.url));
const autocannon = tool('autocannon');
const { Client } = tool('@microsoft/microsoft-graph-client');

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const DURATION_S = values.quick ? 4 : 10;
const ROUNDS = values.quick ? 1 : 3;
const STARTS = values.quick ? 3 : 5;
const PHONE_METHODS = '/v1.0/me/authentication/phoneMethods';
const log = (text) => process.stderr.write(`${text}\n`);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** From spawning `bomwright emulator --tls` to the Graph SDK's first answer: the user's whole wait. */
async function timeToFirstCall(state) {
  const started = performance.now();
  const emulator = await startEmulatorChild({ args: ['--tls', '--state', state] });
  const ca = (await import('node:fs')).readFileSync(join(state, 'tls', 'ca.pem'), 'utf8');
  const dispatcher = new Agent({ connect: { ca } });
  const token = await mintToken(emulator.url, dispatcher);
  const client = Client.init({
    baseUrl: emulator.url,
    customHosts: new Set([new URL(emulator.url).hostname]),
    authProvider: (done) => done(null, token),
    fetchOptions: { dispatcher },
  });
  const phones = await client.api('/me/authentication/phoneMethods').get();
  const ms = performance.now() - started;
  if (!Array.isArray(phones.value)) throw new Error('no phone methods');
  await stop(emulator.child);
  await dispatcher.close();
  return ms;
}

function load(url, token) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}${PHONE_METHODS}`,
        headers: { authorization: `Bearer ${token}` },
        connections: 50,
        pipelining: 1,
        duration: DURATION_S,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function main() {
  log('[L] the emulator over HTTPS');
  const first = [];
  const kept = [];
  for (let i = 0; i < STARTS; i++) {
    const state = mkdtempSync(join(tmpdir(), 'bomwright-tls-'));
    first.push(await timeToFirstCall(state));
    kept.push(await timeToFirstCall(state));
    rmSync(state, { recursive: true, force: true });
    log(`  L1 start ${i + 1}: ${fmt(first.at(-1))} ms first, ${fmt(kept.at(-1))} ms with the certificate kept`);
  }

  const state = mkdtempSync(join(tmpdir(), 'bomwright-tls-'));
  const plain = await startEmulatorChild();
  const secure = await startEmulatorChild({ args: ['--tls', '--state', state] });
  const ca = (await import('node:fs')).readFileSync(join(state, 'tls', 'ca.pem'), 'utf8');
  const dispatcher = new Agent({ connect: { ca } });
  const tokens = { http: await mintToken(plain.url), https: await mintToken(secure.url, dispatcher) };
  const runs = { http: [], https: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of [
      ['http', plain.url],
      ['https', secure.url],
    ]) {
      const result = await load(url, tokens[name]);
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      runs[name].push({ rps: result.requests.average, p99: result.latency.p99 });
      log(`  L2 round ${round + 1} ${name}: ${fmt(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
    }
  }
  await stop(plain.child);
  await stop(secure.child);
  await dispatcher.close();
  rmSync(state, { recursive: true, force: true });

  const rps = (name) => median(runs[name].map((r) => r.rps));
  const p99 = (name) => median(runs[name].map((r) => r.p99));
  const lines = [
    '### L. The emulator over HTTPS',
    '',
    `L1: from spawning \`bomwright emulator --tls --state DIR\` to the Graph JS SDK's first answer (token minted, one call), median of ${STARTS}. L2: autocannon in this process, 50 connections with keep-alive, ${DURATION_S} s per run, GET phone methods, median of ${ROUNDS} interleaved rounds.`,
    '',
    '| what | result |',
    '|---|---:|',
    `| L1 first start (the CA and the certificate are made) to the first SDK call | ${fmt(median(first))} ms |`,
    `| L1 a restart (the certificate kept) to the first SDK call | ${fmt(median(kept))} ms |`,
    `| L2 read load over HTTP | ${fmt(rps('http'))} req/s, p99 ${fmt(p99('http'))} ms |`,
    `| L2 read load over HTTPS | ${fmt(rps('https'))} req/s, p99 ${fmt(p99('https'))} ms (${fmt((100 * rps('https')) / rps('http'))}% of HTTP) |`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

await main();
