// Peer: validate one CycloneDX 1.6 JSON file with the CycloneDX JavaScript library's strict JSON validator.
//   node bench/peers/cyclonedx-library.js FILE [--timing]
// Exit 0 only when the file is valid (a benchmark of a failing run is worthless); 1 when the library reports
// errors (first one on stderr); non-zero on a crash.
// With --timing, the last stdout line is {"ms": N}: time from this module's first statement to the result,
// i.e. library loading + reading + validating, without node's own start-up.
const start = process.hrtime.bigint();
// Dynamic imports so that loading the library falls inside the timed window (static imports run before it).
const { readFileSync } = await import('node:fs');
const { Validation, Spec } = await import('@cyclonedx/cyclonedx-library');

const [file, ...flags] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: cyclonedx-library.js FILE [--timing]\n');
  process.exit(2);
}
// The benchmark BOMs are all specVersion 1.6 (see bench/generate.js).
const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);
const error = await validator.validate(readFileSync(file, 'utf8'));
const ms = Number(process.hrtime.bigint() - start) / 1e6;

if (error !== null) {
  process.stderr.write(`cyclonedx-library: ${file} is invalid: ${JSON.stringify(error).slice(0, 500)}\n`);
  process.exit(1);
}
if (flags.includes('--timing')) process.stdout.write(`${JSON.stringify({ ms })}\n`);
