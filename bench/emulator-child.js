// The emulator as the benchmarks use it: a child process on loopback (`bomwright emulator --port 0`), its address
// read from stdout, its request log (one line per request, on stderr) kept when asked, and a token minted from it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/bomwright.cjs');

/** Starts the emulator; resolves with `{ child, url, lines }` (`lines` holds the request log unless `quiet`). */
export function startEmulatorChild({ args = [], quiet = true } = {}) {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', ...(quiet ? ['--quiet'] : []), ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', quiet ? 'inherit' : 'pipe'],
  });
  const lines = [];
  if (!quiet) {
    let pending = '';
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      pending += chunk;
      const complete = pending.split('\n');
      pending = complete.pop();
      lines.push(...complete);
    });
  }
  return new Promise((resolve) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const match = /^listening on (\S+)\n/.exec(out);
      if (match) resolve({ child, url: match[1], lines });
    });
  });
}

/** A bearer token for the emulator's default user (an undici dispatcher that trusts its CA for HTTPS). */
export async function mintToken(url, dispatcher) {
  const response = await fetch(`${url}/_emulator/token`, {
    method: 'POST',
    body: '{}',
    headers: { 'content-type': 'application/json' },
    ...(dispatcher === undefined ? {} : { dispatcher }),
  });
  return (await response.json()).access_token;
}
