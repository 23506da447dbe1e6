#!/usr/bin/env node
'use strict';
// Entry point, CommonJS on purpose: Node starts a CommonJS entry faster than an ES module one. The CLI is one
// bundle loaded with a V8 code cache (src/runtime/code-cache.ts); main() maps every failure to one line and
// exit code 2, and this catch covers a broken installation. Start-up is most of a small run, so the commonest
// command lines skip the full CLI: --version and --help from files the build wrote, and `validate FILE…` with
// the common options through a bundle of its own (src/cli/fast.ts). Anything else goes to the full CLI.
const path = require('node:path');

// A reader that stops early (`bomwright verify --format json | head`) closes the pipe: not an error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error && error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const argv = process.argv.slice(2);
/** Measurement and test switch: every command line through the full CLI. */
const fast = process.env.BOMWRIGHT_NO_FAST_PATH !== '1';

/** The built CLI (or the fast path's bundle), or one line saying how to build it (a checkout without `npm ci`). */
function loadBundle(name) {
  try {
    const { requireBundle } = require('../dist/runtime/code-cache.cjs');
    return requireBundle(path.join(__dirname, `../dist/bundle/${name}.cjs`));
  } catch (error) {
    if (error && (error.code === 'MODULE_NOT_FOUND' || error.code === 'ENOENT')) {
      process.stderr.write('bomwright: E_NOT_BUILT: bomwright is not built here; run npm run build (npm ci does it)\n');
      process.exit(2);
    }
    throw error;
  }
}

const HELP = path.join(__dirname, '../dist/bundle/help.txt');

/**
 * The top-level help as yargs prints it, written by the build; only where yargs would print that same text: it
 * wraps at the terminal's width up to 80 columns.
 */
function builtHelp() {
  const columns = process.stdout.columns;
  if (columns !== undefined && columns < 80) return undefined;
  try {
    return require('node:fs').readFileSync(HELP, 'utf8');
  } catch {
    return undefined;
  }
}

/** bomwright's version as yargs prints it, once built (else the full CLI says it is not built). */
function builtVersion() {
  try {
    if (!require('node:fs').existsSync(HELP)) return undefined;
    const { version } = JSON.parse(require('node:fs').readFileSync(path.join(__dirname, '../package.json'), 'utf8'));
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/** `validate` arguments the fast path takes, or undefined (then the full CLI answers, or says it is not built). */
function fastValidateArgs(args) {
  let recognise;
  try {
    recognise = require('../dist/runtime/fast-args.cjs').fastValidateArgs;
  } catch {
    return undefined;
  }
  return recognise(args);
}

async function run() {
  try {
    if (fast && argv.length === 1 && argv[0] === '--version') {
      const version = builtVersion();
      if (version !== undefined) {
        process.stdout.write(`${version}\n`);
        return;
      }
    }
    if (fast && argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
      const help = builtHelp();
      if (help !== undefined) {
        process.stdout.write(help);
        return;
      }
    }
    const io = {
      argv,
      cwd: process.cwd(),
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      stderrStream: process.stderr,
      stdoutIsTerminal: process.stdout.isTTY === true,
      env: process.env,
    };
    if (fast && argv[0] === 'validate') {
      const args = fastValidateArgs(argv);
      if (args !== undefined) {
        const code = await loadBundle('fast').validateFast(io, args);
        if (code !== undefined) {
          process.exitCode = code;
          return;
        }
      }
    }
    process.exitCode = await loadBundle('cli').main(io);
  } catch (error) {
    process.stderr.write(`bomwright: E_INTERNAL: ${String((error && error.message) || error).split('\n')[0]}\n`);
    process.exitCode = 2;
  }
}

run();
