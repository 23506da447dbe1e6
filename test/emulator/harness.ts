/** Starts an emulator on 127.0.0.1, port 0, for one test file, and calls it over real HTTP. */
import { afterAll, beforeAll } from 'vitest';
import {
  startEmulator,
  type EmulatorOptions,
  type RunningEmulator,
  type TokenOptions,
} from '../../src/emulator/index.js';
import { createClient, type ServiceApi } from '../../src/service/index.js';

/** A reply's JSON: tests check it field by field with assertions, so it is left untyped here, once. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

export interface Reply {
  status: number;
  headers: Headers;
  body: Body;
  text: string;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  /** Sent as is (no JSON encoding). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export class Harness {
  emulator!: RunningEmulator;
  private readonly tokens = new Map<string, string>();

  constructor(private readonly options: EmulatorOptions = {}) {}

  start(): Promise<void> {
    return startEmulator({ port: 0, ...this.options }).then((emulator) => {
      this.emulator = emulator;
    });
  }

  /** A token, cached per option set. */
  async token(options: TokenOptions = {}): Promise<string> {
    const key = JSON.stringify(options);
    let token = this.tokens.get(key);
    if (token === undefined) this.tokens.set(key, (token = await this.emulator.token(options)));
    return token;
  }

  async call(method: string, path: string, options: CallOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    const token = options.token === undefined ? await this.token() : options.token;
    if (token !== null) headers.Authorization = `Bearer ${token}`;
    let body: string | Uint8Array | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const url = path.startsWith('http') ? path : `${this.emulator.url}/v1.0${path}`;
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }
}

/** A harness started before the file's tests and closed after them. */
export function useEmulator(options: EmulatorOptions = {}): Harness {
  const harness = new Harness(options);
  beforeAll(() => harness.start());
  afterAll(() => harness.emulator?.close());
  return harness;
}

/** An emulator for one test file with its request log kept, and a typed client of it (the default user). */
export function useService(options: EmulatorOptions = {}): {
  harness: Harness;
  requests: string[];
  service: () => ServiceApi;
} {
  const requests: string[] = [];
  const harness = useEmulator({ ...options, log: (line) => requests.push(line) });
  let client: ServiceApi | undefined;
  beforeAll(() => {
    client = createClient({ baseUrl: harness.emulator.url, getToken: () => harness.token() });
  });
  afterAll(() => client?.close());
  return { harness, requests, service: () => client! };
}
