#!/usr/bin/env node
'use strict';
// The pre-commit hook's entry (.pre-commit-hooks.yaml, `language: script`): `bomwright validate --staged` from the
// committed Action bundle beside it, so installing the hook clones this repository and installs nothing.
const { runPreCommit } = require('./dist/index.cjs');

runPreCommit(process.argv.slice(2), process.cwd(), (text) => process.stdout.write(text)).then(
  (code) => (process.exitCode = code),
  (error) => {
    const code = error && typeof error.code === 'string' ? `${error.code}: ` : '';
    process.stderr.write(`bomwright: ${code}${String((error && error.message) || error).split('\n')[0]}\n`);
    process.exitCode = 2;
  },
);
