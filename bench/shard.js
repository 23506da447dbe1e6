// Case M: sharding. 2,000 generated BOMs checked by one `bomwright validate` run, and by four
// `validate --shard I/4` runs whose reports `bomwright merge-reports` joins; the merged report must be the
// unsharded one byte for byte (sarif, json and junit). Whole processes, interleaved round by round; this machine
// runs the shards one after another, so "the slowest shard + the merge" is what a matrix of four runners would
// wait for, and "all four shards" is the machine time they spend in all.
//   node bench/shard.js [--quick]    (npm run bench -- --only M)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateBom } from './generate.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/bomwright.cjs');
// A repository of its own (a .git folder is what bomwright looks for), so the report uris are sboms/bom-NNNN.json.
const REPO = join(ROOT, 'bench/.data/shard');
const FILES = 2000;
const SHARDS = 4;
const FORMATS = ['sarif', 'json', 'junit'];

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const ROUNDS = values.quick ? 3 : 7;
const log = (text) => process.stderr.write(`${text}\n`);
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

// File i: 5 to 50 components (generateBom, seed i), pretty-printed; one in 40 with version 0 (an error), one in 25
// with the nil serial number (a warning), so the reports have results to merge.
const components = (i) => 5 + ((i * 37) % 46);
const RECIPE = `${FILES} files; n = ${components}; seed = i; version 0 if i % 40 == 7; nil serial if i % 25 == 3`;

function prepare() {
  const dir = join(REPO, 'sboms');
  const manifestFile = join(REPO, 'manifest.txt');
  const fingerprint = createHash('sha256')
    .update(readFileSync(join(ROOT, 'bench/generate.js')))
    .update(RECIPE)
    .digest('hex');
  const names = Array.from({ length: FILES }, (_, i) => `bom-${String(i).padStart(4, '0')}.json`);
  const current =
    existsSync(manifestFile) &&
    readFileSync(manifestFile, 'utf8') === fingerprint &&
    readdirSync(dir).sort().join('\n') === names.join('\n');
  if (!current) {
    log(`[M] generating ${relative(ROOT, dir)}/ (${FILES.toLocaleString('en-US')} files) ...`);
    rmSync(REPO, { recursive: true, force: true });
    mkdirSync(join(REPO, '.git'), { recursive: true });
    mkdirSync(dir);
    names.forEach((name, i) => {
      const bom = generateBom(components(i), { seed: i });
      if (i % 40 === 7) bom.version = 0;
      if (i % 25 === 3) bom.serialNumber = 'urn:uuid:00000000-0000-0000-0000-000000000000';
      writeFileSync(join(dir, name), `${JSON.stringify(bom, null, 2)}\n`);
    });
    writeFileSync(manifestFile, fingerprint);
  }
  let bytes = 0;
  for (const name of names) bytes += readFileSync(join(dir, name)).length;
  return bytes;
}

/** One whole bomwright process in the repository; exit 0 or 1 (the documents' verdict), else the case fails. */
function run(args) {
  const started = performance.now();
  const child = spawnSync(process.execPath, [BIN, ...args], { cwd: REPO, encoding: 'utf8', timeout: 600_000 });
  const ms = performance.now() - started;
  if (child.status !== 0 && child.status !== 1)
    throw new Error(`bomwright ${args.join(' ')} exited ${child.status ?? child.signal}: ${child.stderr}`);
  return ms;
}

const read = (file) => readFileSync(join(REPO, file));

function main() {
  const bytes = prepare();
  const out = (name) => join('out', name);
  mkdirSync(join(REPO, 'out'), { recursive: true });
  const validateArgs = (format, file, shard) => [
    'validate',
    'sboms',
    '--format',
    format,
    '--output',
    out(file),
    '--no-progress',
    ...(shard === undefined ? [] : ['--shard', `${shard}/${SHARDS}`]),
  ];
  const shardFiles = (format) => Array.from({ length: SHARDS }, (_, i) => out(`shard-${i + 1}.${format}`));

  // Untimed: every format once, sharded and not, to check the bytes and count each shard's documents.
  const equal = {};
  const sizes = {};
  const documents = [];
  for (const format of FORMATS) {
    run(validateArgs(format, `all.${format}`));
    for (let shard = 1; shard <= SHARDS; shard++) run(validateArgs(format, `shard-${shard}.${format}`, shard));
    run(['merge-reports', ...shardFiles(format), '--output', out(`merged.${format}`)]);
    equal[format] = read(out(`merged.${format}`)).equals(read(out(`all.${format}`)));
    sizes[format] = read(out(`all.${format}`)).length;
    if (format === 'json')
      for (const file of shardFiles('json')) documents.push(JSON.parse(read(file)).documents.length);
  }
  log(`[M] bytes equal: ${FORMATS.map((f) => `${f} ${equal[f]}`).join(', ')}; shards ${documents.join(', ')}`);

  // Timed, sarif (the format code scanning takes): round by round, each command once per round.
  const times = { all: [], shards: Array.from({ length: SHARDS }, () => []), merge: [], sum: [], path: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    log(`[M] round ${round}/${ROUNDS}`);
    times.all.push(run(validateArgs('sarif', 'all.sarif')));
    const each = [];
    for (let shard = 1; shard <= SHARDS; shard++) {
      const ms = run(validateArgs('sarif', `shard-${shard}.sarif`, shard));
      times.shards[shard - 1].push(ms);
      each.push(ms);
    }
    const merge = run(['merge-reports', ...shardFiles('sarif'), '--output', out('merged.sarif')]);
    times.merge.push(merge);
    times.sum.push(each.reduce((a, b) => a + b, 0) + merge);
    times.path.push(Math.max(...each) + merge);
    if (!read(out('merged.sarif')).equals(read(out('all.sarif')))) throw new Error('the merged SARIF differs');
  }

  const lines = [
    '### M. sharding: 4 shards and merge-reports against one run',
    '',
    `${FILES.toLocaleString('en-US')} generated BOMs (${(bytes / 1e6).toFixed(1)} MB, 5 to 50 components each, 50 with an error, 80 with a warning) in a repository of their own; \`bomwright validate sboms --format sarif --output FILE\`, and the same with \`--shard I/4\` for I = 1..4 followed by \`bomwright merge-reports\`. Whole processes, default \`--jobs\` (the core count), medians of ${ROUNDS} interleaved rounds.`,
    '',
    '| what | documents | median wall time |',
    '|---|---:|---:|',
    `| unsharded \`validate\` | ${FILES.toLocaleString('en-US')} | ${seconds(median(times.all))} |`,
    ...times.shards.map(
      (list, i) => `| \`validate --shard ${i + 1}/${SHARDS}\` | ${documents[i]} | ${seconds(median(list))} |`,
    ),
    `| \`merge-reports\` (4 SARIF files) | ${FILES.toLocaleString('en-US')} | ${median(times.merge).toFixed(0)} ms |`,
    `| the slowest shard + merge (a matrix of 4 runners waits this long) | | ${seconds(median(times.path))} |`,
    `| all 4 shards + merge, one after another (machine time spent) | | ${seconds(median(times.sum))} |`,
    '',
    '| format | merged report = unsharded report | size |',
    '|---|---|---:|',
    ...FORMATS.map(
      (f) => `| ${f} | ${equal[f] ? 'yes, byte for byte' : '**no**'} | ${(sizes[f] / 1e3).toFixed(1)} kB |`,
    ),
    '',
  ];
  process.stdout.write(lines.join('\n'));
  if (FORMATS.some((f) => !equal[f])) process.exitCode = 1;
}

main();
