// Case C's floor under bomwright's design: the checks `validate` cannot skip, run bare in one process, without the
// CLI, the rules, locating or reporting.
//   node bench/peers/validate-parts.cjs FILE
// It reads the file, parses it with JSON.parse, makes the duplicate-name check JSON.parse does not (the member
// count on the text and the walk over the tree that must agree with it) and runs the document's precompiled schema
// validator (generated/validators, loaded with its code cache as the CLI loads it). Exit 0 when the schema
// accepts the document and the counts agree, 1 otherwise.
'use strict';
const { readFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '../..');
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: validate-parts.cjs FILE\n');
  process.exit(2);
}

async function main() {
  const { requireBundle } = require(path.join(ROOT, 'dist/runtime/code-cache.cjs'));
  const { countMembers } = await import(path.join(ROOT, 'dist/json/quick-scan.js'));
  const { indexDocument } = await import(path.join(ROOT, 'dist/validate/document-index.js'));
  const text = readFileSync(file, 'utf8');
  const tree = JSON.parse(text);
  const agrees = countMembers(text) === indexDocument(tree).members;
  const version = String(tree.specVersion).replace(/[^0-9.]/g, '');
  const { validate } = requireBundle(path.join(ROOT, `generated/validators/cyclonedx-${version}.cjs`));
  const valid = validate(tree);
  if (!agrees || !valid) {
    process.stderr.write(agrees ? `schema: ${validate.errors?.length ?? 0} errors\n` : 'member counts disagree\n');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  process.stderr.write(`validate-parts: ${error.message}\n`);
  process.exitCode = 2;
});
