#!/usr/bin/env node
// Entry point. The CLI is one CommonJS bundle loaded with a V8 code cache (see src/runtime/code-cache.ts);
// main() maps every failure to one line and exit code 2, and this catch covers a broken installation.
import { fileURLToPath } from 'node:url';

try {
  const { requireBundle } = await import('../dist/runtime/code-cache.js');
  const { main } = requireBundle(fileURLToPath(new URL('../dist/bundle/cli.cjs', import.meta.url)));
  process.exitCode = await main({
    argv: process.argv.slice(2),
    cwd: process.cwd(),
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
} catch (error) {
  process.stderr.write(`bomwright: E_INTERNAL: ${String(error?.message ?? error).split('\n')[0]}\n`);
  process.exitCode = 2;
}
