/** Scripted servers on 127.0.0.1 for the client's tests: each request gets the next answer of its script. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { createServiceClient, type ServiceClient } from '../../src/service/client.js';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A scripted server on 127.0.0.1: each request gets the next answer of the script. */
export async function scripted(
  answers: ((seen: Seen) => { status: number; headers?: Record<string, string>; body?: unknown })[],
): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const entry = { method: request.method!, url: request.url!, headers: request.headers, body };
      seen.push(entry);
      const answer = answers[Math.min(seen.length - 1, answers.length - 1)]!(entry);
      const payload = answer.body === undefined ? '' : JSON.stringify(answer.body);
      response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

/** Closed after each test. */
export const servers: Server[] = [];
const clients: ServiceClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

export function serviceClient(
  baseUrl: string,
  options: Partial<Parameters<typeof createServiceClient>[0]> = {},
): ServiceClient {
  const created = createServiceClient({
    baseUrl,
    token: 'test-token-abcdefgh',
    retry: { delaySeconds: 0.01, maxDelaySeconds: 0.05 },
    random: () => 0,
    ...options,
  });
  clients.push(created);
  return created;
}
