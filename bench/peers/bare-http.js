// The reference for case I1: a bare node:http server answering a fixed JSON body (argv[2]) to every request.
import { createServer } from 'node:http';

const body = Buffer.from(process.argv[2] ?? '{}');
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  response.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
