/**
 * Hostile servers on 127.0.0.1 for the credential tests: each counts what it received (every request, and the
 * Authorization headers among them) and answers with a handler that may do anything a hostile service does.
 * Closed after each test, connections and all.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface Hostile {
  url: string;
  origin: string;
  port: number;
  /** Requests received, in order. */
  requests: { method: string; url: string; authorization?: string }[];
}

type Handler = (request: IncomingMessage, response: ServerResponse, self: Hostile) => void;

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

export async function hostile(handler: Handler): Promise<Hostile> {
  const self: Hostile = { url: '', origin: '', port: 0, requests: [] };
  const server = createServer((request, response) => {
    self.requests.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization });
    request.resume();
    request.on('end', () => handler(request, response, self));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.port = (server.address() as AddressInfo).port;
  self.origin = `http://127.0.0.1:${self.port}`;
  self.url = self.origin;
  open.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return self;
}

/** Answers JSON. */
export function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** A page of a collection with an optional nextLink / deltaLink. */
export function page(items: unknown[], links: { next?: string; delta?: string } = {}) {
  return {
    value: items,
    ...(links.next === undefined ? {} : { '@odata.nextLink': links.next }),
    ...(links.delta === undefined ? {} : { '@odata.deltaLink': links.delta }),
  };
}
