/** What a handler gets and returns. Handlers are pure over the transaction: no I/O, no clock of their own. */
import type { ODataNamespace } from './namespace.js';
import type { Operation } from '../service/operations.js';
import type { Principal } from './auth.js';
import type { JsonRecord, Store, Transaction } from './store.js';

export interface EmulatorSettings {
  /** `{base_url}`: the emulator's own address, for links and `@odata.id` values. */
  readonly baseUrl: string;
  readonly tenantId: string;
  /** Polls of a clone operation that still answer "running" before it completes. */
  readonly clonePolls: number;
  /** Retry-After (seconds) on a clone operation's answer while it runs; none when undefined. */
  readonly cloneRetryAfterSeconds?: number;
  /** The namespace on the wire: `microsoft.graph` also answers the real service's words where the spec renamed them. */
  readonly odataNamespace?: ODataNamespace;
}

export interface HandlerContext {
  readonly operation: Operation;
  /** The path template the request matched (which form of the operation). */
  readonly template: string;
  readonly params: Readonly<Record<string, string>>;
  /** Query options, already limited to those the operation accepts. */
  readonly query: ReadonlyMap<string, string>;
  readonly header: (name: string) => string | undefined;
  readonly principal: Principal;
  readonly body: unknown;
  readonly tx: Transaction;
  readonly store: Store;
  readonly settings: EmulatorSettings;
  /** `{base_url}` as the request reached the emulator (scheme, host and port): every link it answers with uses it. */
  readonly baseUrl: string;
  /** The request's clock reading, ISO 8601. */
  readonly now: string;
  /** A fresh identifier (GUID). */
  readonly newId: () => string;
  /** Signs and checks opaque paging tokens. */
  readonly links: LinkTokens;
}

export interface LinkTokens {
  seal(payload: JsonRecord): string;
  /** The payload, or undefined when the token was not made here or was changed. */
  open(token: string): JsonRecord | undefined;
}

export interface HandlerResult {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Handler = (context: HandlerContext) => HandlerResult;
