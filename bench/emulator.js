// Case I: the service emulator under load (`npm run bench -- --only I`, or `node bench/emulator.js [--quick]`).
// Everything runs on loopback, bounded in time: the emulator (and a bare node:http server answering the same JSON,
// for comparison) in child processes, the load generator (autocannon) in this process.
//   I1  read load: GET phone methods, 50 connections with keep-alive; emulator and bare server interleaved
//   I2  mixed load, 20% writes (create a message), without and with --state; acknowledged writes per second; with
//       --state alternately with its floor, a bare node:http server group-committing each write with fdatasync
//   I3  the emulator's resident memory after I2
//   I4  kill -9 loop: writers running, the emulator killed at a random moment and restarted on the same --state,
//       every acknowledged write checked after each restart
// --floor-curve runs only the durable floor under I2's mix with 0, 20, 40 and 60 µs of CPU added per request, then
// the emulator and that floor at a fixed 5,000 requests/s: the CPU per request the emulator adds.
// --baseline DIR adds I2 with --state for another built checkout (e.g. main), run alternately with this one's
// (three rounds each), so a change is compared on the same machine in the same run.
// Markdown goes to stdout, progress to stderr.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';

// The load generator is a test tool (test/package.json, installed by npm run bench), not a root dependency.
const autocannon = createRequire(new URL('../test/package.json', import.meta.url))('autocannon');

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/bomwright.cjs');
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    baseline: { type: 'string' },
    'floor-curve': { type: 'boolean', default: false },
  },
});
const BASELINE_BIN = values.baseline === undefined ? undefined : join(values.baseline, 'bin/bomwright.cjs');
const DURATION_S = values.quick ? 4 : 10;
const ROUNDS = values.quick ? 1 : 3;
const KILLS = values.quick ? 20 : 100;
const PHONE_METHODS = '/v1.0/me/authentication/phoneMethods';
/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux the bench runs on. */
const CLOCK_TICKS_PER_SECOND = 100;
/** A request rate below both servers' capacity here, for comparing CPU per request without saturation. */
const FIXED_RATE = 5000;

const log = (text) => process.stderr.write(`${text}\n`);

/** Starts a child that prints "listening on URL" first; resolves with the URL and the process. */
function startChild(args) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /^listening on (\S+)\n/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening: ${stderr}`)));
  });
}

function stop(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const startEmulator = (extra = [], bin = BIN) => startChild([bin, 'emulator', '--port', '0', '--quiet', ...extra]);

async function tokenFor(url) {
  const response = await fetch(`${url}/_emulator/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  return (await response.json()).access_token;
}

function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

function load(options) {
  return new Promise((resolve, reject) => {
    autocannon({ connections: 50, pipelining: 1, duration: DURATION_S, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** The run with the median acknowledged writes/s, so its other figures come from the same run. */
const byWrites = (runs) => [...runs].sort((a, b) => a.writesPerSecond - b.writesPerSecond)[runs.length >> 1];
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const fmt = (n, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function readLoad() {
  const emulator = await startEmulator();
  const token = await tokenFor(emulator.url);
  const headers = { Authorization: `Bearer ${token}` };
  const body = await (await fetch(`${emulator.url}${PHONE_METHODS}`, { headers })).text();
  const bare = await startChild([join(ROOT, 'bench/peers/bare-http.js'), body]);
  const results = { emulator: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, url] of [
      ['emulator', emulator.url],
      ['bare', bare.url],
    ]) {
      const result = await load({ url: `${url}${PHONE_METHODS}`, headers });
      if (result.non2xx > 0 || result.errors > 0)
        throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      results[name].push({ rps: result.requests.average, p99: result.latency.p99 });
      log(`  I1 ${name} round ${round + 1}: ${fmt(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
    }
  }
  await stop(emulator.child);
  await stop(bare.child);
  const summary = (list) => ({ rps: median(list.map((r) => r.rps)), p99: median(list.map((r) => r.p99)) });
  return { emulator: summary(results.emulator), bare: summary(results.bare), body };
}

/**
 * I2's mixed load against the emulator (`bin`, with `--state stateDir` when given) or, with `floorBody`, against
 * bench/peers/bare-durable-http.js: the same load on a bare server that group-commits each write with fdatasync.
 */
async function mixedLoad(stateDir, bin = BIN, floorBody = undefined, burnMicroseconds = 0, rate = undefined) {
  const emulator =
    floorBody === undefined
      ? await startEmulator(stateDir === undefined ? [] : ['--state', stateDir], bin)
      : await startChild([
          join(ROOT, 'bench/peers/bare-durable-http.js'),
          floorBody,
          stateDir,
          String(burnMicroseconds),
        ]);
  const token = floorBody === undefined ? await tokenFor(emulator.url) : 'none';
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const read = { method: 'GET', path: PHONE_METHODS };
  const write = {
    method: 'POST',
    path: '/v1.0/me/mailFolders/inbox/messages',
    body: JSON.stringify({ subject: 'load' }),
  };
  const requests = [read, read, read, read, write];
  // At a fixed rate the server is warmed up first, and its main thread's CPU per request is what is measured.
  if (rate !== undefined) await load({ url: emulator.url, headers, requests, overallRate: rate, duration: 2 });
  const before = rate === undefined ? undefined : mainThreadCpuMs(emulator.child.pid);
  const result = await load({
    url: emulator.url,
    headers,
    requests,
    ...(rate === undefined ? {} : { overallRate: rate }),
  });
  const cpuMs = before === undefined ? undefined : mainThreadCpuMs(emulator.child.pid) - before;
  const created = result.statusCodeStats?.['201']?.count ?? 0;
  const ok = result.statusCodeStats?.['200']?.count ?? 0;
  const rss = rssOf(emulator.child.pid);
  await stop(emulator.child);
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`mixed load: ${result.errors} errors, ${result.non2xx} non-2xx`);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    writesPerSecond: created / DURATION_S,
    readsPerSecond: ok / DURATION_S,
    rss,
    mainThreadMicrosecondsPerRequest: cpuMs === undefined ? undefined : (cpuMs * 1000) / result.requests.total,
  };
}

/** CPU time (user + system) of a process's main thread so far, in ms; its thread id is its pid. */
function mainThreadCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in clock ticks.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** Subjects of the inbox, through message delta. */
async function inboxSubjects(url, token) {
  const subjects = new Set();
  let next = `${url}/v1.0/me/mailFolders/inbox/messages/delta?$select=subject`;
  while (next !== undefined) {
    const page = await (
      await fetch(next, { headers: { Authorization: `Bearer ${token}`, Prefer: 'odata.maxpagesize=1000' } })
    ).json();
    for (const message of page.value) subjects.add(message.subject);
    next = page['@odata.nextLink'];
  }
  return subjects;
}

async function killLoop() {
  const stateDir = mkdtempSync(join(tmpdir(), 'bomwright-kill-'));
  const acknowledged = [];
  let lost = 0;
  let sequence = 0;
  const started = performance.now();
  for (let kill = 0; kill < KILLS; kill++) {
    const emulator = await startEmulator(['--state', stateDir]);
    const token = await tokenFor(emulator.url);
    // Every write acknowledged so far must be there after the restart.
    const present = await inboxSubjects(emulator.url, token);
    lost += acknowledged.filter((subject) => !present.has(subject)).length;
    let running = true;
    const writer = async () => {
      while (running) {
        const subject = `w${sequence++}`;
        try {
          const response = await fetch(`${emulator.url}/v1.0/me/mailFolders/inbox/messages`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ subject }),
          });
          if (response.status === 201) acknowledged.push(subject);
          else await response.arrayBuffer();
        } catch {
          return; // the connection died with the process: this write was not acknowledged
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 250));
    const exited = new Promise((resolve) => emulator.child.once('exit', resolve));
    emulator.child.kill('SIGKILL');
    running = false;
    await Promise.all(writers);
    await exited;
    if ((kill + 1) % 10 === 0)
      log(`  I4 ${kill + 1}/${KILLS} kills, ${acknowledged.length} writes acknowledged, ${lost} lost`);
  }
  const emulator = await startEmulator(['--state', stateDir]);
  const present = await inboxSubjects(emulator.url, await tokenFor(emulator.url));
  lost += acknowledged.filter((subject) => !present.has(subject)).length;
  await stop(emulator.child);
  rmSync(stateDir, { recursive: true, force: true });
  return { kills: KILLS, acknowledged: acknowledged.length, lost, seconds: (performance.now() - started) / 1000 };
}

/**
 * `--floor-curve`: the durable floor under I2's load with a fixed CPU cost added to every request (0 to 60 µs),
 * alternating rounds. It shows how much work per request a server can do on top of Node's HTTP and still
 * acknowledge 2,000 writes/s here, with the load generator on the other core.
 */
async function floorCurve() {
  const emulator = await startEmulator();
  const token = await tokenFor(emulator.url);
  const body = await (
    await fetch(`${emulator.url}${PHONE_METHODS}`, { headers: { Authorization: `Bearer ${token}` } })
  ).text();
  await stop(emulator.child);
  const burns = [0, 20, 40, 60];
  const runs = new Map(burns.map((burn) => [burn, []]));
  for (let round = 0; round < ROUNDS; round++)
    for (const burn of burns) {
      const dir = mkdtempSync(join(tmpdir(), 'bomwright-floor-'));
      const result = await mixedLoad(dir, BIN, body, burn);
      rmSync(dir, { recursive: true, force: true });
      runs.get(burn).push(result);
      log(`  floor + ${burn} µs round ${round + 1}: ${fmt(result.rps)} req/s, ${fmt(result.writesPerSecond)} writes/s`);
    }
  // The same mix at a fixed rate: the CPU per request the emulator (--state) adds to the durable floor's.
  const added = { emulator: [], floor: [] };
  const achieved = { emulator: [], floor: [] };
  for (let round = 0; round < ROUNDS; round++)
    for (const [name, floorBody] of [
      ['emulator', undefined],
      ['floor', body],
    ]) {
      const dir = mkdtempSync(join(tmpdir(), 'bomwright-floor-'));
      const result = await mixedLoad(dir, BIN, floorBody, 0, FIXED_RATE);
      rmSync(dir, { recursive: true, force: true });
      added[name].push(result.mainThreadMicrosecondsPerRequest);
      achieved[name].push(result.rps);
      log(
        `  ${name} at ${fmt(FIXED_RATE)} req/s round ${round + 1}: ${fmt(result.mainThreadMicrosecondsPerRequest, 1)} µs per request`,
      );
    }
  const emulatorCost = median(added.emulator);
  const floorCost = median(added.floor);
  const lines = [
    '### I2 floor curve: the durable floor with a fixed CPU cost per request',
    '',
    `\`bench/peers/bare-durable-http.js\` under I2's mix (20% writes, 50 connections, ${DURATION_S} s per run), medians of ${ROUNDS} alternating round${ROUNDS === 1 ? '' : 's'}.`,
    '',
    '| CPU added per request | requests/s | acknowledged writes/s | p99 |',
    '|---:|---:|---:|---:|',
    ...burns.map((burn) => {
      const middle = byWrites(runs.get(burn));
      return `| ${burn} µs | ${fmt(middle.rps)} | ${fmt(middle.writesPerSecond)} | ${middle.p99} ms |`;
    }),
    '',
    `What the emulator adds: the same mix at a fixed ${fmt(FIXED_RATE)} requests/s (below both servers' capacity; they answered ${fmt(median(achieved.emulator))} and ${fmt(median(achieved.floor))} requests/s), the server's main thread's CPU per request, medians of ${ROUNDS} alternating round${ROUNDS === 1 ? '' : 's'}: the emulator with \`--state\` ${fmt(emulatorCost, 1)} µs, the durable floor ${fmt(floorCost, 1)} µs, so the emulator adds **${fmt(emulatorCost - floorCost, 1)} µs** per request.`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

async function main() {
  if (values['floor-curve']) return floorCurve();
  log(
    `[I] the emulator under load (${DURATION_S} s per run, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}, ${KILLS} kills)`,
  );
  const read = await readLoad();
  log('  I2 mixed load, memory state');
  const memory = await mixedLoad(undefined);
  // The emulator with --state and the durable floor (a bare server with the same group commit), alternately.
  const durableRuns = [];
  const floorRuns = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, runs, floorBody] of [
      ['--state', durableRuns, undefined],
      ['durable floor', floorRuns, read.body],
    ]) {
      log(`  I2 mixed load, ${name} round ${round + 1}`);
      const dir = mkdtempSync(join(tmpdir(), 'bomwright-state-'));
      runs.push(await mixedLoad(dir, BIN, floorBody));
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const durable = byWrites(durableRuns);
  const floor = byWrites(floorRuns);
  const compared = { ours: [], baseline: [] };
  if (BASELINE_BIN !== undefined)
    for (let round = 0; round < 3; round++)
      for (const [name, bin] of [
        ['ours', BIN],
        ['baseline', BASELINE_BIN],
      ]) {
        const dir = mkdtempSync(join(tmpdir(), 'bomwright-state-'));
        const result = await mixedLoad(dir, bin);
        rmSync(dir, { recursive: true, force: true });
        compared[name].push(result.writesPerSecond);
        log(`  I2 --state, ${name} round ${round + 1}: ${fmt(result.writesPerSecond)} acknowledged writes/s`);
      }
  log('  I4 kill -9 loop');
  const kills = await killLoop();
  const lines = [
    '### I. The service emulator under load',
    '',
    `Loopback, autocannon in a second process, 50 connections with keep-alive, ${DURATION_S} s per run; I1 is the median of ${ROUNDS} interleaved rounds.`,
    '',
    '| what | emulator | bare `node:http` (same JSON) | ratio |',
    '|---|---:|---:|---:|',
    `| I1 read load: GET phone methods, requests/s | ${fmt(read.emulator.rps)} | ${fmt(read.bare.rps)} | ${fmt((100 * read.emulator.rps) / read.bare.rps)}% (goal ≥ 50%) |`,
    `| I1 read load: p99 latency | ${read.emulator.p99} ms | ${read.bare.p99} ms | goal ≤ 10 ms |`,
    '',
    '| I2 mixed load (20% writes: create a message) | requests/s | p99 | acknowledged writes/s | reads/s | I3 RSS after |',
    '|---|---:|---:|---:|---:|---:|',
    `| in memory | ${fmt(memory.rps)} | ${memory.p99} ms | ${fmt(memory.writesPerSecond)} | ${fmt(memory.readsPerSecond)} | ${fmt(memory.rss / 2 ** 20, 1)} MiB |`,
    `| \`--state\` (fsync before each acknowledgement, group commit) | ${fmt(durable.rps)} | ${durable.p99} ms | ${fmt(durable.writesPerSecond)} (goal ≥ 2,000) | ${fmt(durable.readsPerSecond)} | ${fmt(durable.rss / 2 ** 20, 1)} MiB |`,
    `| floor: bare \`node:http\` + the same group-committed fdatasync (\`bench/peers/bare-durable-http.js\`) | ${fmt(floor.rps)} | ${floor.p99} ms | ${fmt(floor.writesPerSecond)} | ${fmt(floor.readsPerSecond)} | ${fmt(floor.rss / 2 ** 20, 1)} MiB |`,
    '',
    `I2 with \`--state\` reaches ${fmt((100 * durable.writesPerSecond) / floor.writesPerSecond)}% of the durable floor's acknowledged writes/s (medians of ${ROUNDS} alternating round${ROUNDS === 1 ? '' : 's'}).`,
    '',
    ...(BASELINE_BIN === undefined
      ? []
      : [
          `I2 \`--state\` against the baseline (${values.baseline}), three alternating rounds each: ${fmt(median(compared.ours))} acknowledged writes/s here, ${fmt(median(compared.baseline))} there (${fmt(median(compared.ours) / median(compared.baseline), 2)}×).`,
          '',
        ]),
    `I4 kill -9 loop: ${kills.kills} kills under write load (8 writers), each followed by a restart on the same \`--state\` that had to hold every write whose response was received: ${fmt(kills.acknowledged)} writes acknowledged, **${kills.lost} lost** (${fmt(kills.seconds, 1)} s).`,
    '',
  ];
  process.stdout.write(lines.join('\n'));
  if (kills.lost > 0) process.exitCode = 1;
}

await main();
