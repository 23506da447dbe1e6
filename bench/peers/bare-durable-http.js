// The floor for case I2 with --state: a bare node:http server that answers every GET with a fixed JSON body
// (argv[2]) and acknowledges a POST (201) only once its body is appended to a file under argv[3] and fdatasync'd,
// with the same group commit as the emulator's journal (everything queued during one fdatasync goes out with the
// next, in one write). No routing, no auth, no state model: what a durable HTTP server can do on this machine.
import { closeSync, fdatasync, openSync, rmSync, write } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const body = Buffer.from(process.argv[2] ?? '{}');
const file = join(process.argv[3] ?? '.', 'journal.ndjson');
/** argv[4]: microseconds of CPU to spend on every request before answering it (0: none), for the floor curve. */
const burnMs = Number(process.argv[4] ?? 0) / 1000;
const burn = () => {
  if (burnMs <= 0) return;
  const end = performance.now() + burnMs;
  while (performance.now() < end);
};
const fd = openSync(file, 'a');
const created = Buffer.from('{"ok":true}');

/** Records and their waiting responses, queued while a commit is on its way to disk. */
let queued = [];
let committing = false;

function commit() {
  committing = true;
  const batch = queued;
  queued = [];
  const bytes = Buffer.concat(batch.map((entry) => entry.record));
  write(fd, bytes, 0, bytes.length, null, (writeError) => {
    if (writeError) throw writeError;
    fdatasync(fd, (syncError) => {
      if (syncError) throw syncError;
      for (const { response } of batch) {
        response.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': created.length });
        response.end(created);
      }
      committing = false;
      if (queued.length > 0) commit();
    });
  });
}

const server = createServer((request, response) => {
  burn();
  if (request.method !== 'POST') {
    request.resume();
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    response.end(body);
    return;
  }
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    queued.push({ record: Buffer.concat([...chunks, Buffer.from('\n')]), response });
    if (!committing) commit();
  });
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () =>
  server.close(() => {
    closeSync(fd);
    rmSync(file, { force: true });
    process.exit(0);
  }),
);
