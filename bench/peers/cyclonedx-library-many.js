// Peer for case E: validate every CycloneDX 1.6 JSON file of a directory, one after another, in this one process,
// with the CycloneDX JavaScript library's strict JSON validator (one validator, built once, reused for every file).
//   node bench/peers/cyclonedx-library-many.js DIR
// The files are DIR's *.json files (not recursive), in name order. Exit 0 only when every file is valid; at the
// first file the library reports invalid, 1 (that file and its first error on stderr); non-zero on a crash.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';

const [dir] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: cyclonedx-library-many.js DIR\n');
  process.exit(2);
}
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => join(dir, name));
if (files.length === 0) {
  process.stderr.write(`cyclonedx-library-many: no *.json files in ${dir}\n`);
  process.exit(2);
}

// The benchmark BOMs are all specVersion 1.6 (see bench/generate.js).
const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);
for (const file of files) {
  const error = await validator.validate(readFileSync(file, 'utf8'));
  if (error !== null) {
    process.stderr.write(`cyclonedx-library-many: ${file} is invalid: ${JSON.stringify(error).slice(0, 500)}\n`);
    process.exit(1);
  }
}
