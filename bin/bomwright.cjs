#!/usr/bin/env node
'use strict';
// Entry point, CommonJS on purpose: Node starts a CommonJS entry faster than an ES module one. The CLI is one
// bundle loaded with a V8 code cache (src/runtime/code-cache.ts); main() maps every failure to one line and
// exit code 2, and this catch covers a broken installation.
const path = require('node:path');

// A reader that stops early (`bomwright verify --format json | head`) closes the pipe: not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error && error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

/** The built CLI, or one line saying how to build it (a checkout without `npm ci`, or after `npm run clean`). */
function loadCli() {
  try {
    const { requireBundle } = require('../dist/runtime/code-cache.cjs');
    return requireBundle(path.join(__dirname, '../dist/bundle/cli.cjs'));
  } catch (error) {
    if (error && (error.code === 'MODULE_NOT_FOUND' || error.code === 'ENOENT')) {
      process.stderr.write('bomwright: E_NOT_BUILT: bomwright is not built here; run npm run build (npm ci does it)\n');
      process.exit(2);
    }
    throw error;
  }
}

async function run() {
  try {
    const { main } = loadCli();
    process.exitCode = await main({
      argv: process.argv.slice(2),
      cwd: process.cwd(),
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      stderrStream: process.stderr,
      stdoutIsTerminal: process.stdout.isTTY === true,
      env: process.env,
    });
  } catch (error) {
    process.stderr.write(`bomwright: E_INTERNAL: ${String((error && error.message) || error).split('\n')[0]}\n`);
    process.exitCode = 2;
  }
}

run();
