/**
 * A failed request as the service reports it: status, code and message, turned into the error body
 * `{"error":{"code","message","innerError":{...}}}` by the transport. Handlers throw these; anything else that
 * escapes a handler is an internal error whose details never reach the caller.
 */
export class ServiceFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ServiceFault';
  }
}

export const badRequest = (message: string): ServiceFault => new ServiceFault(400, 'BadRequest', message);

export const notFound = (what: string, id: string): ServiceFault =>
  new ServiceFault(404, 'itemNotFound', `${what} '${id}' was not found.`);

export const forbidden = (message: string): ServiceFault =>
  new ServiceFault(403, 'Authorization_RequestDenied', message);
