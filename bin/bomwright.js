#!/usr/bin/env node
// Entry point: everything that can fail is inside main(), which maps failures to one line and exit code 2.
try {
  const { main } = await import('../dist/cli/main.js');
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
