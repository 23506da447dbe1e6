// In-process probe for bomwright's library API, the counterpart of cyclonedx-library.js --timing.
//   node bench/peers/bomwright-library.js FILE [--timing]
// Exit 0 only when the file is valid; 1 when bomwright reports errors (first error on stderr); non-zero on a crash.
// With --timing, the last stdout line is {"ms": N}: time from this module's first statement to the result,
// i.e. loading dist/index.js (and its precompiled validators) + reading + validating, without node's start-up.
const start = process.hrtime.bigint();
// Dynamic imports so that loading bomwright falls inside the timed window (static imports run before it).
const { readFileSync } = await import('node:fs');
const { validate } = await import(new URL('../../dist/index.js', import.meta.url).href);

const [file, ...flags] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: bomwright-library.js FILE [--timing]\n');
  process.exit(2);
}
// Bytes, as the CLI passes them: this includes UTF-8 decoding and the duplicate-key scan.
const result = await validate(readFileSync(file));
const ms = Number(process.hrtime.bigint() - start) / 1e6;

if (!result.valid) {
  const first = result.diagnostics.find((d) => d.severity === 'error') ?? result.diagnostics[0];
  process.stderr.write(`bomwright: ${file} is invalid (${result.errors} errors): ${JSON.stringify(first)}\n`);
  process.exit(1);
}
if (flags.includes('--timing')) process.stdout.write(`${JSON.stringify({ ms })}\n`);
