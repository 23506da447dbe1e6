// bomwright benchmark harness (`npm run bench`; see bench/README.md for what each case measures).
//   node bench/run.js [--quick] [--only A|B|C|D|E|F|G|H|I|J|K|L|M|N|O|P|R|V|X|Y ...]
// Cases run one after another, never in parallel (CI machines have 2 cores and parallel runs would skew each
// other). Within a case the commands are interleaved round-robin so that drift in machine load hits every
// command alike, which keeps the ratios honest. The markdown report goes to stdout and bench/.data/results.md;
// progress goes to stderr.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateBom, generateXmlBom } from './generate.js';
import { BenchError, describe, runForOutput, runOnce, runWithPeakRss, summarize } from './measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA_DIR = join(ROOT, 'bench', '.data');
const RESULTS_FILE = join(DATA_DIR, 'results.md');
/** Whether the CycloneDX library's XML validator can load its native addon here (an optional dependency). */
function canLoadLibxmljs2() {
  try {
    createRequire(createRequire(import.meta.url).resolve('@cyclonedx/cyclonedx-library')).resolve('libxmljs2');
    return true;
  } catch {
    return false;
  }
}

const CASES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'R', 'V', 'X', 'Y'];
// Safety net so that a hung child cannot hang the harness; only the library runs of cases C and E may time out
// legitimately. bomwright on case E's 2,000 files (about 600 MB) gets more than the default, to be safe on slow
// machines.
const DEFAULT_TIMEOUT_MS = 120_000;
const LIBRARY_20K_TIMEOUT_MS = 300_000;
const MANY_TIMEOUT_MS = 600_000;
const LIBRARY_MANY_TIMEOUT_MS = 900_000;
// Case E's input: MANY_FILES minified BOMs in bench/.data/many/, file i with 100 + (i * 37) % 901 components and
// seed i (100 to 1,000 components, about 600 MB in all).
const MANY_FILES = 2000;
const manyComponents = (i) => 100 + ((i * 37) % 901);

const USAGE = `usage: node bench/run.js [--quick] [--only A|B|C|D|E|F|G|H|I|J|K|L|M|N|O|P|R|V|X|Y ...] [--baseline DIR]
  --quick         fewer runs (5, slow peers and case D 3, cases E and F 1) and no library run in cases C and E
  --only CASE     run only these cases; repeat or comma-separate (--only A,C)
  --baseline DIR  also measure the built CLI of another checkout (e.g. an earlier commit) in cases A and B`;

function main() {
  const options = parseOptions(process.argv.slice(2));
  if (!options) return 0;
  const buildState = checkBuild();
  // Facts are taken before measuring, so that the CPU sample describes the machine, not the benchmark itself.
  const busy = sampleCpuBusy();
  const facts = machineFacts(busy, buildState);
  if (busy > 0.25) log(`warning: the CPUs were ${formatPercent(busy)} busy before start; figures will be inflated`);

  // Full: 11 timed runs per command, 7 for the slower library peer (0.5-1 s a run), 5 for every command of
  // case D (signing 10,000 components takes seconds), 3 for the bulk cases E and F (tens of seconds and hundreds
  // of megabytes a run); odd counts make the median an actual run.
  const runs = options.quick ? { fast: 5, slow: 3, signing: 3, bulk: 1 } : { fast: 11, slow: 7, signing: 5, bulk: 3 };
  const sections = [];
  for (const id of options.only.filter((c) => !['I', 'J', 'K', 'L', 'M', 'O'].includes(c)))
    sections.push(...CASE_BUILDERS[id](runs, options));

  const before = cpuAccount();
  const results = sections.map(measureSection);
  const others = otherCpuShare(before, cpuAccount());
  if (others !== null) {
    const at = facts.findIndex(([key]) => key.startsWith('CPU busy')) + 1;
    facts.splice(at, 0, ['CPU used by other processes while measuring', formatPercent(others)]);
    if (others > 0.1) log(`warning: other processes used ${formatPercent(others)} of the CPUs; figures are noisy`);
  }
  let report = renderReport(results, options, runs, facts);
  // Cases I to M and O measure throughput, calls, sequences of commands or an install: their own scripts write their sections.
  if (options.only.includes('I')) report += `\n${runScriptCase('bench/emulator.js', options)}\n`;
  if (options.only.includes('J')) report += `\n${runScriptCase('bench/client.js', options)}\n`;
  if (options.only.includes('K')) report += `\n${runScriptCase('bench/enrich.js', options)}\n`;
  if (options.only.includes('L')) report += `\n${runScriptCase('bench/tls.js', options)}\n`;
  if (options.only.includes('M')) report += `\n${runScriptCase('bench/shard.js', options)}\n`;
  if (options.only.includes('O')) report += `\n${runScriptCase('bench/hook.js', options)}\n`;
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(RESULTS_FILE, report);
  process.stdout.write(report);
  log(`\nwritten to ${relative(ROOT, RESULTS_FILE)}`);
  return 0;
}

function runScriptCase(script, options) {
  const run = spawnSync(process.execPath, [join(ROOT, script), ...(options.quick ? ['--quick'] : [])], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 30 * 60_000,
  });
  if (run.status !== 0) throw new BenchError(`${script} failed (exit ${run.status ?? run.signal})`);
  return run.stdout;
}

// ---------------------------------------------------------------------------------------------------------------
// Cases. Each builder returns sections; a section is a group of rows compared with its reference row (ratio 1×).

const bomwrightCli = (file) => [cliEntry(), 'validate', file];
const libraryPeer = (file, ...flags) => ['bench/peers/cyclonedx-library.js', file, ...flags];
const bomwrightProbe = (file, ...flags) => ['bench/peers/bomwright-library.js', file, ...flags];
const readAndParse = (file) => ['-e', "JSON.parse(require('node:fs').readFileSync(process.argv[1], 'utf8'))", file];
const READ_AND_PARSE_LABEL = '`node -e` readFileSync + JSON.parse';

const BUMP = 'bomwright CLI `bump -o`';
const NORMALIZE = 'bomwright CLI `normalize -o`';
const DIFF = 'bomwright CLI `diff` against the next version';

const CASE_BUILDERS = {
  H(runs) {
    const input = prepareBom(100);
    const dir = join(DATA_DIR, 'action-workspace');
    mkdirSync(dir, { recursive: true });
    // The runner starts a node24 action as `node <main>` with the inputs in INPUT_* variables.
    const env = {
      GITHUB_WORKSPACE: dir,
      INPUT_PATHS: join(ROOT, input.path),
      'INPUT_SARIF-FILE': join(dir, 'bomwright.sarif'),
    };
    return [
      {
        caseId: 'H',
        title: 'GitHub Action start-up: the committed bundle on one small BOM, whole process',
        input,
        rows: [
          row('`node -e 0`', ['-e', '0'], runs.fast, { reference: true }),
          row('bomwright Action `node action/dist/index.cjs`', ['action/dist/index.cjs'], runs.fast, {
            subject: true,
            env,
          }),
        ],
        goals: [{ text: 'Action ÷ `node -e 0`', target: 'well under 1 s', met: null }],
      },
    ];
  },

  A(runs, options) {
    const input = prepareBom(100);
    return [
      {
        caseId: 'A',
        title: 'Start-up: CLI on a small BOM vs bare node, whole process',
        input,
        rows: [
          row('`node -e 0`', ['-e', '0'], runs.fast, { reference: true }),
          row('bomwright CLI `validate`', bomwrightCli(input.path), runs.fast, { subject: true }),
          ...baselineRows(input, runs, options),
          row('cyclonedx-library script', libraryPeer(input.path), runs.slow),
        ],
        goals: [{ text: 'bomwright CLI ÷ `node -e 0`', target: '≤ 1.5×', met: (r) => r <= 1.5 }],
      },
    ];
  },

  B(runs, options) {
    const input = prepareBom(1000);
    return [
      {
        caseId: 'B',
        title: 'Medium BOM: bomwright vs the CycloneDX library, whole process',
        input,
        rows: [
          row('bomwright CLI `validate`', bomwrightCli(input.path), runs.fast, { reference: true }),
          ...baselineRows(input, runs, options),
          row('cyclonedx-library script', libraryPeer(input.path), runs.slow, { subject: true }),
        ],
        goals: [{ text: 'library ÷ bomwright, whole process', target: '≥ 5×', met: (r) => r >= 5 }],
      },
      {
        caseId: 'B',
        title: 'Medium BOM: time to first result in a fresh process, node start-up excluded',
        input,
        rows: [
          row('bomwright `validate()`', bomwrightProbe(input.path, '--timing'), runs.fast, {
            reference: true,
            metric: 'reported',
          }),
          row('cyclonedx-library `validate()`', libraryPeer(input.path, '--timing'), runs.slow, {
            subject: true,
            metric: 'reported',
          }),
        ],
        goals: [{ text: 'library ÷ bomwright, in-process', target: 'none (informational)', met: null }],
      },
    ];
  },

  C(runs, options) {
    const input = prepareBom(20000);
    const library = row('cyclonedx-library script', libraryPeer(input.path), 1, {
      // Known to be quadratic in the component count (~2 minutes here): one run, no warm-up, bounded.
      warmup: false,
      timeoutMs: LIBRARY_20K_TIMEOUT_MS,
      mayTimeOut: true,
      skipped: options.quick ? 'skipped (--quick)' : null,
    });
    return [
      {
        caseId: 'C',
        title: 'Large BOM: CLI vs just reading and parsing the file, whole process',
        input,
        rows: [
          row(READ_AND_PARSE_LABEL, readAndParse(input.path), runs.fast, { reference: true }),
          row('bomwright CLI `validate`', bomwrightCli(input.path), runs.fast, { subject: true }),
          // The floor of this design: the checks validate cannot skip, bare (peers/validate-parts.cjs).
          row(
            'floor: read, JSON.parse, duplicate-name check and schema validator only, no CLI',
            ['bench/peers/validate-parts.cjs', input.path],
            runs.fast,
          ),
          library,
        ],
        goals: [{ text: 'bomwright CLI ÷ read + JSON.parse', target: '≤ 2× (issue 33)', met: (r) => r <= 2 }],
      },
    ];
  },

  P(runs) {
    // Compliance profiles (issue 30): the same 20,000 components as case C, validated alone and with all six
    // built-in profiles, which read the parsed document in the same pass.
    const input = prepareBom(20000);
    const profiles = ['ntia-2021', 'cisa-2025', 'cisa-2026', 'bsi-2.0', 'bsi-2.1', 'cra'].flatMap((name) => [
      '--profile',
      name,
    ]);
    return [
      {
        caseId: 'P',
        title: 'Large BOM with all six built-in profiles vs without, whole process',
        input,
        rows: [
          row('bomwright CLI `validate`', [...bomwrightCli(input.path), '--format', 'json'], runs.fast, {
            reference: true,
          }),
          row(
            'bomwright CLI `validate --profile` ×6',
            [...bomwrightCli(input.path), '--format', 'json', ...profiles],
            runs.fast,
            // The generated BOM meets none of the profiles (no suppliers, no composition…): exit 1, as a gate says.
            { subject: true, okExitCodes: [1] },
          ),
        ],
        goals: [{ text: 'with profiles ÷ without', target: '≤ 1.3×', met: (r) => r <= 1.3 }],
      },
    ];
  },

  X(runs) {
    // CycloneDX XML: the same 20,000 components as case C, as XML. The reference parses the file with the same
    // libxml2 (WebAssembly) that bomwright validates it with; the library's XML validator needs libxmljs2, a native
    // addon, and runs where it is installed.
    const input = prepareXmlBom(20000);
    return [
      {
        caseId: 'X',
        title: 'Large XML BOM: CLI vs parsing it with the same libxml2, whole process',
        input,
        rows: [
          row(LIBXML2_PARSE_LABEL, ['bench/peers/libxml2-parse.js', input.path], runs.fast, {
            reference: true,
            peakRss: true,
          }),
          row('bomwright CLI `validate`', bomwrightCli(input.path), runs.fast, { subject: true, peakRss: true }),
          row(
            'cyclonedx-library XmlValidator (libxmljs2)',
            ['bench/peers/cyclonedx-library-xml.js', input.path],
            runs.slow,
            {
              skipped: canLoadLibxmljs2()
                ? null
                : 'skipped (libxmljs2, the native addon the library needs for XML, is not installed)',
            },
          ),
        ],
        goals: [
          { text: 'bomwright CLI ÷ libxml2-wasm parse', target: '≤ 3×', met: (r) => r <= 3 },
          // libxml2 validates a whole tree in WebAssembly memory, which never shrinks: the parse alone is the floor.
          {
            text: 'bomwright CLI peak RSS ÷ file size',
            target: 'none (informational; the floor is the parse alone)',
            met: null,
            measure: 'peakRss',
          },
          {
            text: 'libxml2-wasm parse peak RSS ÷ file size',
            target: 'none (informational)',
            met: null,
            measure: 'peakRss',
            of: LIBXML2_PARSE_LABEL,
          },
        ],
      },
    ];
  },

  Y(runs) {
    // Findings at scale (issue 43): 40,000 invalid components (each one finding) against the valid document of
    // the same size, per syntax. Locating XML findings and gathering JSON ones once grew with their square.
    const n = 40000;
    const sections = [];
    for (const [syntax, valid] of [
      ['JSON', prepareBom(n)],
      ['XML', prepareXmlBom(n)],
    ]) {
      const invalid = prepareInvalidTypes(valid);
      sections.push({
        caseId: 'Y',
        title: `${syntax}: ${formatCount(n)} findings vs the valid document of the same size, whole process`,
        input: invalid,
        rows: [
          row(`bomwright CLI \`validate\` ${valid.name} (valid)`, bomwrightCli(valid.path), runs.fast, {
            reference: true,
          }),
          row(
            `bomwright CLI \`validate\` ${invalid.name} (${formatCount(n)} findings)`,
            bomwrightCli(invalid.path),
            runs.fast,
            {
              subject: true,
              okExitCodes: [1],
            },
          ),
        ],
        goals: [
          { text: `${syntax}: ${formatCount(n)} findings ÷ valid`, target: '≤ 2× (issue 43)', met: (r) => r <= 2 },
        ],
      });
    }
    return sections;
  },

  D(runs) {
    // Two sections, each interleaving its commands, because each ratio needs the reference on its own input: the
    // signed file is about 45% bigger than the unsigned one, and parsing it costs correspondingly more.
    const input = prepareBom(10000);
    const { key, signed, output } = prepareSigning(input);
    return [
      {
        caseId: 'D',
        title: 'Signing every component and the root vs reading and parsing the input, whole process',
        input: { ...input, note: 'unsigned' },
        rows: [
          row(READ_AND_PARSE_LABEL, readAndParse(input.path), runs.signing, { reference: true }),
          row('bomwright CLI `sign` (components + root)', signArgs(input.path, key, output), runs.signing, {
            subject: true,
          }),
        ],
        goals: [
          { text: 'bomwright `sign` ÷ read + JSON.parse of the input', target: 'none (informational)', met: null },
        ],
      },
      {
        caseId: 'D',
        title: 'Verifying every signature with a trust store vs reading and parsing the signed file, whole process',
        input: signed,
        rows: [
          row(READ_AND_PARSE_LABEL, readAndParse(signed.path), runs.signing, { reference: true }),
          row('bomwright CLI `verify --require-trusted`', verifyArgs(signed.path, key), runs.signing, {
            subject: true,
          }),
        ],
        goals: [
          {
            text: 'bomwright `verify` ÷ read + JSON.parse of the signed file',
            target: 'none (informational)',
            met: null,
          },
        ],
      },
    ];
  },

  E(runs, options) {
    const input = prepareMany();
    const perRun = { count: MANY_FILES, unit: 'files' };
    const cli = (jobs) => [cliEntry(), 'validate', input.path, '--jobs', String(jobs), '--quiet', '--no-progress'];
    const jobs1 = 'bomwright CLI `validate --jobs 1`';
    const jobs2 = 'bomwright CLI `validate --jobs 2`';
    const library = 'cyclonedx-library script (one process, one validator)';
    return [
      {
        caseId: 'E',
        title: 'Many files: 2,000 BOMs in one command, whole process',
        input,
        rows: [
          row(jobs1, cli(1), runs.bulk, { reference: true, perRun, timeoutMs: MANY_TIMEOUT_MS }),
          row(jobs2, cli(2), runs.bulk, { perRun, timeoutMs: MANY_TIMEOUT_MS }),
          row(library, ['bench/peers/cyclonedx-library-many.js', input.path], 1, {
            // One validator for 2,000 documents takes minutes: one run, no warm-up, bounded.
            subject: true,
            perRun,
            warmup: false,
            timeoutMs: LIBRARY_MANY_TIMEOUT_MS,
            mayTimeOut: true,
            skipped: options.quick ? 'skipped (--quick)' : null,
          }),
        ],
        goals: [
          { text: 'library ÷ bomwright `--jobs 1`, 2,000 files', target: 'none (informational)', met: null },
          {
            text: 'library ÷ bomwright `--jobs 2`, 2,000 files',
            target: 'none (informational)',
            met: null,
            over: jobs2,
          },
          {
            text: 'bomwright `--jobs 1` ÷ `--jobs 2` (speed-up of a second worker)',
            target: 'none (informational)',
            met: null,
            of: jobs1,
            over: jobs2,
          },
        ],
      },
    ];
  },

  G(runs) {
    // Authoring at scale: bump and normalize a 20,000-component BOM (written to a scratch file, so the input stays
    // as it is), and diff it against a second version with 1% of its components changed, 100 removed, 100 added.
    const input = prepareBom(20000);
    const next = prepareNextVersion(input);
    const out = join(DATA_DIR, 'authoring-output.json');
    return [
      {
        caseId: 'G',
        title: 'Authoring a 20,000-component BOM: bump, normalize, diff, whole process',
        input,
        rows: [
          row(READ_AND_PARSE_LABEL, readAndParse(input.path), runs.fast, { reference: true }),
          row(BUMP, [cliEntry(), 'bump', input.path, '-o', out], runs.fast, { subject: true }),
          row(NORMALIZE, [cliEntry(), 'normalize', input.path, '-o', out], runs.fast),
          row(DIFF, [cliEntry(), 'diff', input.path, next.path], runs.fast, { okExitCodes: [1] }),
        ],
        goals: [
          { text: 'bomwright `bump` ÷ read + JSON.parse', target: 'none (informational)', met: null },
          {
            text: 'bomwright `normalize` ÷ read + JSON.parse',
            target: 'none (informational)',
            met: null,
            of: NORMALIZE,
          },
          {
            text: 'bomwright `diff` (two documents) ÷ read + JSON.parse (one)',
            target: 'none (informational)',
            met: null,
            of: DIFF,
          },
        ],
      },
    ];
  },

  V(runs) {
    // `bomwright convert` of case C's 20,000 components (CycloneDX 1.6) against `validate` of it, whole process:
    // the same version (read, walk against the schema, validate the result, write) and down to 1.4 (tools converted).
    const input = prepareBom(20000);
    const out = join(DATA_DIR, 'convert-output.json');
    const convert = (...extra) => [cliEntry(), 'convert', input.path, '-o', out, ...extra];
    const DOWN = 'bomwright CLI `convert --spec-version 1.4`';
    // JSON → XML (issue 42's figure is for convert as such, whichever syntax it writes).
    const TO_XML = 'bomwright CLI `convert -o out.xml` (JSON → XML)';
    const toXml = [cliEntry(), 'convert', input.path, '-o', join(DATA_DIR, 'convert-output.xml')];
    return [
      {
        caseId: 'V',
        title: 'Converting a 20,000-component BOM vs validating it, whole process',
        input,
        rows: [
          row('bomwright CLI `validate`', bomwrightCli(input.path), runs.fast, { reference: true }),
          row('bomwright CLI `convert` (1.6 → 1.6)', convert(), runs.fast, { subject: true }),
          row(DOWN, convert('--spec-version', '1.4'), runs.fast),
          row(TO_XML, toXml, runs.fast),
        ],
        goals: [
          { text: 'bomwright `convert` ÷ `validate`', target: '≤ 2× (issue 42)', met: (r) => r <= 2 },
          {
            text: 'bomwright `convert --spec-version 1.4` ÷ `validate`',
            target: '≤ 2× (issue 42)',
            met: (r) => r <= 2,
            of: DOWN,
          },
          {
            text: 'bomwright `convert -o out.xml` ÷ `validate`',
            target: '≤ 2× (issue 42)',
            met: (r) => r <= 2,
            of: TO_XML,
          },
        ],
      },
    ];
  },

  N(runs) {
    // `bomwright merge` of ten 10,000-component BOMs against validating the same ten files, whole process. The
    // CycloneDX CLI's merge is a .NET program that npm cannot install, so it has no row here.
    const input = prepareMergeInputs();
    const out = join(DATA_DIR, 'merge-output.json');
    const files = input.files.map((f) => relative(ROOT, f));
    const mergeArgs = [cliEntry(), 'merge', ...files, '-o', out, '--name', 'merged', '--version', '1.0.0'];
    return [
      {
        caseId: 'N',
        title: 'Merging ten 10,000-component BOMs vs validating them, whole process',
        input,
        rows: [
          row(
            'bomwright CLI `validate` (the ten files)',
            [cliEntry(), 'validate', input.path, '--quiet', '--no-progress'],
            runs.bulk,
            {
              reference: true,
            },
          ),
          row(
            'bomwright CLI `validate --jobs 1` (the ten files)',
            [cliEntry(), 'validate', input.path, '--jobs', '1', '--quiet', '--no-progress'],
            runs.bulk,
          ),
          row('bomwright CLI `merge` (the ten files → one)', mergeArgs, runs.bulk, { subject: true, peakRss: true }),
        ],
        goals: [{ text: 'bomwright `merge` ÷ `validate` of its inputs', target: '≤ 3×', met: (r) => r <= 3 }],
      },
    ];
  },

  R(runs) {
    // The html report against the SARIF report of the same run: time, size and peak RSS, for case E's 2,000 files
    // and for one 20,000-component document. Each command writes its report to a scratch file (-o); its size and the
    // process's peak RSS go in Notes.
    const many = prepareMany();
    const big = prepareBom(20000);
    const out = (name) => join(DATA_DIR, name);
    const report = (input, format, file, extra) =>
      row(
        `bomwright CLI \`validate --format ${format}\``,
        [cliEntry(), 'validate', input.path, '--format', format, '-o', out(file), '--no-progress'],
        extra.runs,
        { outputFile: out(file), peakRss: true, ...extra },
      );
    const goals = [
      { text: 'html report ÷ SARIF report, wall time', target: 'none (informational)', met: null },
      { text: 'html report ÷ SARIF report, size', target: 'none (informational)', met: null, measure: 'output' },
    ];
    return [
      {
        caseId: 'R',
        title: 'The html report of 2,000 files against their SARIF report, whole process',
        input: many,
        rows: [
          report(many, 'sarif', 'report-many.sarif', { runs: runs.bulk, reference: true, timeoutMs: MANY_TIMEOUT_MS }),
          report(many, 'html', 'report-many.html', { runs: runs.bulk, subject: true, timeoutMs: MANY_TIMEOUT_MS }),
        ],
        goals,
      },
      {
        caseId: 'R',
        title: 'The html report of one 20,000-component document against its SARIF report, whole process',
        input: big,
        rows: [
          report(big, 'sarif', 'report-20000.sarif', { runs: runs.fast, reference: true }),
          report(big, 'html', 'report-20000.html', { runs: runs.fast, subject: true }),
        ],
        goals,
      },
    ];
  },

  F(runs) {
    const input = prepareBom(100000, { rich: true });
    const bigRow = (label, args, extra) => row(label, args, runs.bulk, { peakRss: true, ...extra });
    return [
      {
        caseId: 'F',
        title: 'One big document: CLI vs just reading and parsing it, wall time and peak RSS',
        input,
        rows: [
          bigRow(READ_AND_PARSE_LABEL, readAndParse(input.path), { reference: true }),
          bigRow('bomwright CLI `validate`', bomwrightCli(input.path), { subject: true }),
        ],
        goals: [
          { text: 'bomwright CLI ÷ read + JSON.parse, wall time', target: '≤ 2×', met: (r) => r <= 2 },
          {
            text: 'bomwright CLI peak RSS ÷ file size',
            target: '≤ 3×',
            met: (r) => r <= 3,
            measure: 'peakRss',
          },
          {
            text: 'read + JSON.parse peak RSS ÷ file size',
            target: 'none (informational)',
            met: null,
            measure: 'peakRss',
            of: READ_AND_PARSE_LABEL,
          },
        ],
      },
    ];
  },
};

/** Signs every component (metadata.component included) and then the root, writing a new file: never in place. */
const signArgs = (file, key, output) => [
  cliEntry(),
  'sign',
  file,
  '--key',
  key.privatePem,
  '--target',
  'components',
  '--target',
  'root',
  '-o',
  output,
];
const verifyArgs = (file, key) => [cliEntry(), 'verify', file, '--trust', key.publicJwk, '--require-trusted'];

/**
 * A measured command. `metric`: 'wall' = wall time of the whole process; 'reported' = the probe's own figure.
 * `peakRss`: also measure the peak RSS of each run (through /usr/bin/time, see measure.js). `perRun`: what one
 * run processes ({ count, unit }), for a throughput figure (count ÷ median seconds) in the Notes column.
 */
function row(label, args, runs, extra = {}) {
  return {
    label,
    command: {
      args,
      cwd: ROOT,
      timeoutMs: extra.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      metric: extra.metric ?? 'wall',
      ...(extra.okExitCodes ? { okExitCodes: extra.okExitCodes } : {}),
      ...(extra.env ? { env: extra.env } : {}),
    },
    runs,
    warmup: extra.warmup ?? true,
    mayTimeOut: extra.mayTimeOut ?? false,
    reference: extra.reference ?? false,
    subject: extra.subject ?? false,
    skipped: extra.skipped ?? null,
    peakRss: extra.peakRss ?? false,
    perRun: extra.perRun ?? null,
    outputFile: extra.outputFile ?? null,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement

function measureSection(section) {
  log(`\n[${section.caseId}] ${section.title} (${section.input.name}, ${formatBytes(section.input.bytes)})`);
  const active = section.rows.filter((r) => !r.skipped);
  const samples = new Map(active.map((r) => [r, []]));
  const timedOut = new Set();

  // One untimed warm-up per command: fills the OS file cache and fails fast on a broken build.
  for (const r of active.filter((r) => r.warmup)) measureOnce(r);

  const rounds = Math.max(0, ...active.map((r) => r.runs));
  for (let round = 0; round < rounds; round++) {
    for (const r of active) {
      if (round >= r.runs || timedOut.has(r)) continue;
      if (r.mayTimeOut) log(`    ${r.label}: one run, timeout ${r.command.timeoutMs / 1000} s ...`);
      const result = measureOnce(r);
      if (result.timedOut) timedOut.add(r);
      else samples.get(r).push(result);
    }
    progress(`    round ${round + 1}/${rounds}`);
  }

  const rows = section.rows.map((r) => {
    if (r.skipped) return { ...r, outcome: { skipped: r.skipped } };
    if (timedOut.has(r)) return { ...r, outcome: { timedOut: true, runs: 1 } };
    const results = samples.get(r);
    const stats = summarize(results.map((s) => s.ms));
    // Peak RSS: median of the runs' peaks, in bytes; null when it could not be measured (no GNU time).
    if (r.peakRss) {
      stats.peakRss = results.every((s) => s.rssBytes !== null) ? summarize(results.map((s) => s.rssBytes)) : null;
    }
    // What the command wrote (-o), the same bytes on every run.
    if (r.outputFile) stats.outputBytes = statSync(r.outputFile).size;
    const rss = stats.peakRss ? `, peak RSS ${formatBytes(stats.peakRss.median)}` : '';
    log(`    ${r.label}: median ${formatMs(stats.median)}${rss} over ${stats.runs} run${stats.runs === 1 ? '' : 's'}`);
    return { ...r, outcome: stats };
  });
  return { ...section, rows };
}

function measureOnce(r) {
  const result = r.peakRss ? runWithPeakRss(r.command) : runOnce(r.command);
  if (result.timedOut && !r.mayTimeOut) {
    throw new BenchError(`${describe(r.command)} did not finish within ${r.command.timeoutMs / 1000} s`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------------
// Report

function renderReport(results, options, runs, facts) {
  const lines = ['# bomwright benchmarks', ''];
  for (const [key, value] of facts) lines.push(`- ${key}: ${value}`);
  const mode = options.quick ? 'quick' : 'full';
  const signingRuns = options.only.includes('D') ? `, ${runs.signing} for every command of case D` : '';
  const bulkCases = options.only.filter((id) => id === 'E' || id === 'F');
  const bulkRuns = bulkCases.length
    ? `, ${runs.bulk} for case${bulkCases.length > 1 ? 's' : ''} ${bulkCases.join(' and ')}`
    : '';
  lines.push(
    `- Mode: ${mode} (${runs.fast} timed runs, ${runs.slow} for the library peer${signingRuns}${bulkRuns}, ` +
      `after one untimed warm-up); cases ${options.only.join(', ')}`,
    '',
    '## Results',
    '',
    '| Case | Measurement | Input | Runs | Median | Min | Max | × ref | Notes |',
    '| :-- | :-- | :-- | --: | --: | --: | --: | --: | :-- |',
  );
  for (const section of results) {
    const ref = section.rows.find((r) => r.reference).outcome;
    const { name, bytes, note } = section.input;
    const input = `${name} (${formatBytes(bytes)}${note ? `, ${note}` : ''})`;
    for (const r of section.rows) {
      const o = r.outcome;
      const kind = r.command.metric === 'reported' ? 'in-process' : 'whole process';
      const cells = o.skipped
        ? ['—', o.skipped, '—', '—', '—']
        : o.timedOut
          ? [
              '1',
              `> ${r.command.timeoutMs / 1000} s (timeout)`,
              '—',
              '—',
              `> ${formatRatio(r.command.timeoutMs / ref.median)}`,
            ]
          : [
              String(o.runs),
              formatMs(o.median),
              formatMs(o.min),
              formatMs(o.max),
              formatRatio(o.median / ref.median) + (r.reference ? ' (ref)' : ''),
            ];
      cells.push(rowNotes(r, section.input));
      lines.push(`| ${section.caseId} | ${r.label}, ${kind} | ${input} | ${cells.join(' | ')} |`);
    }
  }

  lines.push('', '## Goals', '', '| Case | Ratio | Target | Measured | Met |', '| :-- | :-- | :-- | --: | :-: |');
  for (const section of results) {
    for (const goal of section.goals) {
      const { value, text } = goalRatio(section, goal);
      const verdict = goal.met && value !== null ? (goal.met(value) ? 'yes' : '**no**') : '—';
      lines.push(`| ${section.caseId} | ${goal.text} | ${goal.target} | ${text} | ${verdict} |`);
    }
  }

  lines.push('', '## Commands (run from the repository root)', '');
  for (const section of results) {
    for (const r of section.rows) lines.push(`- ${section.caseId}, ${r.label}: \`${describe(r.command)}\``);
  }
  lines.push(
    '',
    'Median, min and max of the timed runs. "Whole process" is the wall time of spawning `node` until it exits, ' +
      'start-up included; "in-process" is the time the probe measured from its first statement to the ' +
      'validation result, in a fresh process (node start-up excluded, module loading included). ' +
      '"× ref" is the row\'s median divided by the median of the "(ref)" row of the same case and kind; ' +
      "in case B the reference is bomwright, so the library's figure says how many times faster bomwright is; " +
      'in case D each reference parses the file that the command below it reads (unsigned for `sign`, signed ' +
      'for `verify`). Notes: files per second (2,000 ÷ median seconds) in case E; in case F the median of the ' +
      "runs' peak resident set size and its multiple of the file size, measured through `/usr/bin/time -f %M` " +
      '(both rows of case F run through it, so their wall times compare like with like).',
    '',
  );
  return lines.join('\n');
}

/** The Notes cell: throughput for rows with `perRun`, peak RSS for rows with `peakRss`; empty otherwise. */
function rowNotes(r, input) {
  const o = r.outcome;
  if (o.skipped) return '';
  if (r.perRun) {
    const { count, unit } = r.perRun;
    if (o.timedOut) return `< ${formatRate(count / (r.command.timeoutMs / 1000))} ${unit}/s`;
    return `${formatRate(count / (o.median / 1000))} ${unit}/s`;
  }
  if (r.outputFile) {
    const rss = o.peakRss ? `, peak RSS ${formatBytes(o.peakRss.median)}` : '';
    return `writes ${formatBytes(o.outputBytes)}${rss}`;
  }
  if (r.peakRss) {
    if (!o.peakRss) return 'peak RSS n/a (no GNU time)';
    return `peak RSS ${formatBytes(o.peakRss.median)} (${formatRatio(o.peakRss.median / input.bytes)} the file)`;
  }
  return '';
}

/**
 * A goal's measured ratio: the median of row `of` ÷ the median of row `over` (labels; by default the section's
 * subject and reference rows), or, with `measure: 'peakRss'`, the median peak RSS of `of` ÷ the input's size.
 * Goals compare medians; for case B the library is the subject, so the ratio reads "bomwright N× faster".
 * `value` is null when there is no figure to judge (row skipped or timed out, RSS not measurable).
 */
function goalRatio(section, goal) {
  const find = (label, flag) => {
    const found = section.rows.find((r) => (label ? r.label === label : r[flag]));
    if (!found) throw new Error(`case ${section.caseId}: goal "${goal.text}" names no row (${label ?? flag})`);
    return found;
  };
  const of = find(goal.of, 'subject');
  const over = find(goal.over, 'reference');
  if (of.outcome.skipped) return { value: null, text: of.outcome.skipped };
  if (goal.measure === 'peakRss') {
    const rss = of.outcome.peakRss;
    if (!rss) return { value: null, text: 'n/a' };
    const ratio = rss.median / section.input.bytes;
    return { value: ratio, text: formatRatio(ratio) };
  }
  if (over.outcome.timedOut || over.outcome.skipped) return { value: null, text: '—' };
  if (goal.measure === 'output') {
    const ratio = of.outcome.outputBytes / over.outcome.outputBytes;
    return { value: ratio, text: formatRatio(ratio) };
  }
  if (of.outcome.timedOut) return { value: null, text: `> ${formatRatio(of.command.timeoutMs / over.outcome.median)}` };
  const ratio = of.outcome.median / over.outcome.median;
  return { value: ratio, text: formatRatio(ratio) };
}

function machineFacts(busy, buildState) {
  const cpus = os.cpus();
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const require = createRequire(import.meta.url);
  const libraryVersion = JSON.parse(readFileSync(require.resolve('@cyclonedx/cyclonedx-library/package.json'))).version;
  return [
    ['Date', new Date().toISOString().replace(/\.\d+Z$/, 'Z')],
    ['Node', `${process.version} (${process.platform} ${process.arch})`],
    ['CPU', `${cpus[0]?.model?.trim() || 'unknown'}, ${cpus.length} logical cores`],
    ['Memory', `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`],
    ['OS', `${os.type()} ${os.release()}`],
    // Other work on the machine inflates every figure; a high value here means the run is suspect.
    ['CPU busy before start (1 s sample)', formatPercent(busy)],
    ['bomwright', `${pkg.version}${gitRevision()}; ${buildState}`],
    ['@cyclonedx/cyclonedx-library', libraryVersion],
  ];
}

/**
 * Share of CPU time spent busy over `ms`, all cores together. Measured rather than read from the load average,
 * which in VMs and containers can count other guests' or blocked tasks and says little about free CPU.
 */
function sampleCpuBusy(ms = 1000) {
  const totals = () =>
    os.cpus().reduce(
      (acc, { times }) => {
        const all = times.user + times.nice + times.sys + times.irq + times.idle;
        return { all: acc.all + all, idle: acc.idle + times.idle };
      },
      { all: 0, idle: 0 },
    );
  const before = totals();
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms); // sleep without spinning a core
  const after = totals();
  const all = after.all - before.all;
  return all > 0 ? 1 - (after.idle - before.idle) / all : 0;
}

/**
 * Machine-wide busy and idle CPU time (ms, from os.cpus()) and, on Linux, the CPU time of this process and its
 * reaped children (ms, from /proc/self/stat). Their difference is work done by other processes while measuring.
 */
function cpuAccount() {
  const machine = os.cpus().reduce(
    (acc, { times }) => ({
      busy: acc.busy + times.user + times.nice + times.sys + times.irq,
      idle: acc.idle + times.idle,
    }),
    { busy: 0, idle: 0 },
  );
  let own = null;
  try {
    // Fields 14-17 (utime, stime, cutime, cstime) after the parenthesised command name; Linux USER_HZ is 100.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    own = fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
  } catch {
    // Not Linux: the figure is simply left out of the report.
  }
  return { ...machine, own };
}

/** Share of all CPU time (every core) that went to other processes between two cpuAccount() calls, or null. */
function otherCpuShare(before, after) {
  if (before.own === null || after.own === null) return null;
  const total = after.busy + after.idle - (before.busy + before.idle);
  const others = after.busy - before.busy - (after.own - before.own);
  return total > 0 ? Math.max(0, others / total) : null;
}

/** The CLI as installed: package.json's `bin` entry (its file name has changed before, .js to .cjs). */
/** The same command run by another checkout's built CLI (--baseline), for before/after figures in one run. */
function baselineRows(input, runs, options) {
  if (!options.baseline) return [];
  const entry = join(options.baseline, 'bin/bomwright.cjs');
  if (!existsSync(entry)) throw new BenchError(`--baseline ${options.baseline} has no bin/bomwright.cjs`);
  const rev = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: options.baseline, encoding: 'utf8' });
  const label = `bomwright CLI \`validate\`, baseline${rev.status === 0 ? ` @ ${rev.stdout.trim()}` : ''}`;
  return [row(label, [entry, 'validate', input.path], runs.fast)];
}

function cliEntry() {
  const { bin } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const entry = typeof bin === 'string' ? bin : bin?.bomwright;
  if (!entry || !existsSync(join(ROOT, entry))) throw new BenchError(`package.json has no usable bin entry (${entry})`);
  return entry.replace(/^\.\//, '');
}

/** " @ abc1234" plus a note when the measured code has uncommitted changes; empty outside a git checkout. */
function gitRevision() {
  const git = (...args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return '';
  const dirty = git('status', '--porcelain', '--', 'src', 'bin', 'schema', 'generated').stdout?.trim();
  return ` @ ${head.stdout.trim()}${dirty ? ' (with uncommitted changes)' : ''}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Set-up

function parseOptions(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        quick: { type: 'boolean', default: false },
        only: { type: 'string', multiple: true },
        baseline: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    throw new BenchError(`${error.message}\n${USAGE}`);
  }
  if (parsed.help) {
    process.stdout.write(`${USAGE}\n`);
    return null;
  }
  const only = (parsed.only ?? CASES).flatMap((v) => v.split(',')).map((v) => v.trim().toUpperCase());
  const unknown = only.filter((v) => !CASES.includes(v));
  if (unknown.length) {
    const expected = `${CASES.slice(0, -1).join(', ')} or ${CASES.at(-1)}`;
    throw new BenchError(`unknown case ${unknown.join(', ')} (expected ${expected})\n${USAGE}`);
  }
  // Canonical order, no duplicates, whatever order the flags came in.
  return { quick: parsed.quick, only: CASES.filter((c) => only.includes(c)), baseline: parsed.baseline };
}

/**
 * The harness measures dist/, not src/: refuse to run without a build, warn when the build looks stale and say
 * which it is, for the report.
 * Only the library entry is checked (the CLI's internal layout may change); a broken CLI fails its warm-up run.
 */
function checkBuild() {
  const entry = join(ROOT, 'dist', 'index.js');
  if (!existsSync(entry)) throw new BenchError('dist/ is not built: run `npm run build` first');
  const srcDir = join(ROOT, 'src');
  if (!existsSync(srcDir)) return 'dist/ as installed';
  const newest = readdirSync(srcDir, { recursive: true })
    .map((p) => join(srcDir, String(p)))
    .filter((p) => p.endsWith('.ts'))
    .reduce((max, p) => Math.max(max, statSync(p).mtimeMs), 0);
  if (newest <= statSync(entry).mtimeMs) return 'dist/ built after the last src/ change';
  log('warning: src/ changed after the last build; `npm run build` to measure it');
  return 'dist/ is OLDER than src/ (the last build was measured)';
}

/**
 * Writes bench/.data/bom-N.json when missing or different from what the generator makes now. `extra` goes to
 * generateBom (case F's `rich`); each N is used by one case only, so the file name need not say which options.
 */
/** A next version of `input` for case G: 1% of the components at a new version, 100 removed, 100 added. */
function prepareNextVersion(input) {
  const name = input.name.replace(/\.json$/, '.next.json');
  const path = join(DATA_DIR, name);
  const document = JSON.parse(readFileSync(join(ROOT, input.path), 'utf8'));
  document.version += 1;
  document.components.forEach((component, i) => {
    if (i % 100 === 0) component.version = `${component.version}-patched`;
  });
  const removed = new Set(document.components.splice(-100).map((c) => c['bom-ref']));
  document.dependencies = document.dependencies.filter((d) => !removed.has(d.ref));
  for (const d of document.dependencies) d.dependsOn = d.dependsOn.filter((ref) => !removed.has(ref));
  const added = generateBom(100, { specVersion: '1.6', seed: 99 });
  document.components.push(...added.components);
  document.dependencies.push(...added.dependencies);
  const text = JSON.stringify(document, null, 2);
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
  return { name, path: relative(ROOT, path), bytes: Buffer.byteLength(text) };
}

function prepareBom(n, extra = {}) {
  const name = `bom-${n}.json`;
  const path = join(DATA_DIR, name);
  const text = JSON.stringify(generateBom(n, { specVersion: '1.6', seed: 1, ...extra }), null, 2);
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
    mkdirSync(DATA_DIR, { recursive: true });
    writeFileSync(path, text);
    log(`generated ${relative(ROOT, path)}`);
  }
  return { name, path: relative(ROOT, path), bytes: Buffer.byteLength(text) };
}

const LIBXML2_PARSE_LABEL = '`node` libxml2-wasm parse only';

/** Case X's input: generateXmlBom(n), cached like prepareBom's. */
function prepareXmlBom(n) {
  const name = `bom-${n}.xml`;
  const path = join(DATA_DIR, name);
  const text = generateXmlBom(n, { specVersion: '1.6', seed: 1 });
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) {
    mkdirSync(DATA_DIR, { recursive: true });
    writeFileSync(path, text);
    log(`generated ${relative(ROOT, path)}`);
  }
  return { name, path: relative(ROOT, path), bytes: Buffer.byteLength(text) };
}

/**
 * Case Y's invalid input: `valid` (a case C or X document) with every component's type `library` written
 * `libr4ry`, the same length and in no version's enumeration: one schema finding per component, same size.
 */
function prepareInvalidTypes(valid) {
  const name = valid.name.replace(/\.(json|xml)$/, '.bad-types.$1');
  const path = join(DATA_DIR, name);
  const text = readFileSync(join(ROOT, valid.path), 'utf8')
    .replaceAll('"type": "library"', '"type": "libr4ry"')
    .replaceAll('type="library"', 'type="libr4ry"');
  if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
  return { name, path: relative(ROOT, path), bytes: Buffer.byteLength(text) };
}

/**
 * Case N's input: bench/.data/merge/bom-01.json … bom-10.json, file i is generateBom(10000, { seed: i }) pretty-printed
 * (distinct packages, the same root component), rewritten when different from what the generator makes.
 */
function prepareMergeInputs() {
  const dir = join(DATA_DIR, 'merge');
  mkdirSync(dir, { recursive: true });
  const files = [];
  let bytes = 0;
  for (let i = 1; i <= 10; i++) {
    const path = join(dir, `bom-${String(i).padStart(2, '0')}.json`);
    const text = JSON.stringify(generateBom(10000, { specVersion: '1.6', seed: i }), null, 2);
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) writeFileSync(path, text);
    files.push(path);
    bytes += Buffer.byteLength(text);
  }
  return { name: 'merge/ (10 × 10,000 components)', path: relative(ROOT, dir), bytes, files };
}

/**
 * Case E's input: MANY_FILES minified BOMs in bench/.data/many/ (bom-0000.json ...), file i made by
 * generateBom(manyComponents(i), { seed: i }). Generating them takes seconds, so they are reused when
 * bench/.data/many.manifest.json (written last, outside the directory so that validating the directory does not
 * read it) matches the generator's source and recipe and the directory holds exactly those files at those sizes;
 * anything else regenerates the whole directory.
 */
function prepareMany() {
  const dir = join(DATA_DIR, 'many');
  const manifestPath = join(DATA_DIR, 'many.manifest.json');
  const names = Array.from({ length: MANY_FILES }, (_, i) => `bom-${String(i).padStart(4, '0')}.json`);
  const fingerprint = createHash('sha256')
    .update(readFileSync(join(ROOT, 'bench', 'generate.js')))
    // The recipe too (manyComponents's source included), so that changing it regenerates the files.
    .update(`${MANY_FILES} files; n = ${manyComponents}; seed = i; minified`)
    .digest('hex');

  let manifest = null;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    // Missing or unreadable: regenerate.
  }
  const complete =
    manifest?.fingerprint === fingerprint &&
    Array.isArray(manifest.sizes) &&
    manifest.sizes.length === names.length &&
    existsSync(dir) &&
    readdirSync(dir).sort().join('\n') === names.join('\n') &&
    names.every((name, i) => statSync(join(dir, name)).size === manifest.sizes[i]);

  if (!complete) {
    log(`generating ${relative(ROOT, dir)}/ (${formatCount(MANY_FILES)} files) ...`);
    rmSync(manifestPath, { force: true });
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const sizes = names.map((name, i) => {
      const text = JSON.stringify(generateBom(manyComponents(i), { seed: i }));
      writeFileSync(join(dir, name), text);
      return Buffer.byteLength(text);
    });
    manifest = { fingerprint, sizes };
    writeFileSync(manifestPath, `${JSON.stringify(manifest)}\n`);
  }
  const counts = names.map((_, i) => manyComponents(i));
  const range = `${formatCount(Math.min(...counts))}-${formatCount(Math.max(...counts))}`;
  return {
    name: 'many/',
    path: relative(ROOT, dir),
    bytes: manifest.sizes.reduce((sum, size) => sum + size, 0),
    note: `${formatCount(MANY_FILES)} files, ${range} components each`,
  };
}

/**
 * Case D's fixtures, made afresh on every run with the CLI under test: a throwaway ES256 key pair
 * (bench/.data/bench-key.*, git-ignored), a signed copy of `input` for `verify` to read, and the path the timed
 * `sign` runs write to (overwritten each run, so the input stays unsigned). Before anything is timed, the signed
 * copy must verify with every signature valid and trusted, one per component, one on metadata.component and one
 * on the root: a build that signs less would otherwise look fast.
 */
function prepareSigning(input) {
  const rel = (name) => relative(ROOT, join(DATA_DIR, name));
  const run = (args) => runForOutput({ args, cwd: ROOT, timeoutMs: DEFAULT_TIMEOUT_MS });
  const key = { privatePem: rel('bench-key.private.pem'), publicJwk: rel('bench-key.public.jwk') };
  const signedName = input.name.replace(/\.json$/, '.signed.json');
  const output = rel(input.name.replace(/\.json$/, '.sign-output.json'));

  log(`preparing case D: key pair, ${signedName}`);
  run([cliEntry(), 'keygen', '--alg', 'ES256', '--out', rel('bench-key'), '--force']);
  run(signArgs(input.path, key, rel(signedName)));

  const document = JSON.parse(readFileSync(join(ROOT, input.path), 'utf8'));
  const signable = [document, document.metadata?.component, ...document.components].filter(Boolean);
  if (signable.some((o) => 'signature' in o)) throw new BenchError(`${input.path} should be unsigned, but is not`);
  const expected = signable.length;
  let signatures;
  try {
    signatures = JSON.parse(run([...verifyArgs(rel(signedName), key), '--format', 'json'])).documents.flatMap(
      (d) => d.signatures,
    );
  } catch (error) {
    if (error instanceof BenchError) throw error;
    throw new BenchError(`could not read the JSON report of \`bomwright verify\` on ${signedName}: ${error.message}`);
  }
  const bad = signatures.filter((s) => s.verdict !== 'valid' || s.trust !== 'trusted');
  if (bad.length || signatures.length !== expected) {
    throw new BenchError(
      `${signedName} has ${signatures.length} signatures (expected ${expected}), ${bad.length} not valid and ` +
        `trusted${bad.length ? `, e.g. ${JSON.stringify(bad[0])}` : ''}`,
    );
  }
  const bytes = statSync(join(DATA_DIR, signedName)).size;
  return {
    key,
    output,
    signed: { name: signedName, path: rel(signedName), bytes, note: `${formatCount(signatures.length)} signatures` },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting and logging

function formatMs(ms) {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`;
}

function formatBytes(bytes) {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} kB` : `${bytes} B`;
}

const formatPercent = (share) => `${Math.round(share * 100)}%`;

const formatCount = (n) => n.toLocaleString('en-US');

const formatRatio = (ratio) => `${ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2)}×`;

const formatRate = (rate) => (rate >= 100 ? formatCount(Math.round(rate)) : rate.toFixed(rate >= 10 ? 1 : 2));

// On a terminal, a round counter overwrites itself (progress) and log lines first clear it; logs stay clean.
const CLEAR_LINE = process.stderr.isTTY ? '\r\x1b[K' : '';
const log = (text) => process.stderr.write(`${CLEAR_LINE}${text}\n`);
const progress = (text) => CLEAR_LINE && process.stderr.write(`${CLEAR_LINE}${text}`);

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof BenchError)) throw error;
  log(`bench: ${error.message}`);
  process.exitCode = 1;
}
