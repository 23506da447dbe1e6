/**
 * `bomwright service <operation>`: every operation of the table as a subcommand, generated from the table (names,
 * path parameters, query options, body), not written out by hand. The client (undici) is its own bundle, loaded
 * only when a service command runs.
 */
import path from 'node:path';
import type { Argv } from 'yargs';
import { BomwrightError } from '../../errors.js';
import { firstSyntaxError } from '../../json/syntax.js';
import { STDIN } from '../../node/discover.js';
import { MAX_SMALL_FILE, readInput } from '../../node/files.js';
import { writeFileAtomic } from '../../node/write.js';
import { STDIN_TOKEN } from '../options.js';
import { OPERATIONS, type Operation, type QueryOption } from '../../service/operations.js';
import type { CliCommand, CliContext } from '../command.js';
import {
  connectionOptions,
  loadServiceModule,
  serviceConnection,
  serviceErrorLine,
  type ServiceModule,
} from '../service-connection.js';
import { deltaLinkFile } from '../../node/delta-link-file.js';
import { redactTokens } from '../../service/errors.js';
import type { CallResponse, ServiceClient } from '../../service/client.js';
import type { CloneResult } from '../../service/flows.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';

const loadService = loadServiceModule;

export const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

const QUERY_FLAGS: Readonly<Record<QueryOption, string>> = {
  $select: 'select',
  $top: 'top',
  $skip: 'skip',
  $expand: 'expand',
  $filter: 'filter',
  $orderby: 'orderby',
  $count: 'count',
  $search: 'search',
  $skiptoken: 'skiptoken',
  $deltatoken: 'deltatoken',
  changeType: 'change-type',
};

function pathParameters(operation: Operation): string[] {
  const names = new Set<string>();
  for (const template of operation.paths) for (const match of template.matchAll(/\{(\w+)\}/g)) names.add(match[1]!);
  return [...names];
}

interface ServiceArgv {
  [key: string]: unknown;
  baseUrl?: string;
  token?: string;
  ca?: string;
  allowHost?: string[];
  body?: string;
  /** Only on paged operations. */
  all?: boolean;
  format: 'json' | 'table';
  workbookSessionId?: string;
  deltaLink?: string;
  nextLink?: string;
  saveDeltaLink?: string;
  maxPageSize?: number;
  wait?: boolean;
  waitTimeout?: number;
}

const camelFlag = (flag: string) => flag.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
const ALL_QUERY_OPTIONS = Object.keys(QUERY_FLAGS) as QueryOption[];

/** The query options of an operation as its flags (`--select, --top`), or "none". */
function queryFlagList(operation: Operation): string {
  return operation.query.length === 0 ? 'none' : operation.query.map((o) => `--${QUERY_FLAGS[o]}`).join(', ');
}

/** How an operation's answer is paged: a delta round (`--delta-link`), a collection (`--next-link`), or not. */
function linkFlag(operation: Operation): 'delta-link' | 'next-link' | undefined {
  const kind = operation.response.kind;
  return kind === 'delta' ? 'delta-link' : kind === 'collection' ? 'next-link' : undefined;
}

/** The most `--max-page-size` asks for: the spec gives no bound, so OData's 32-bit integer. */
const MAX_PAGE_SIZE = 2_147_483_647;
/** `--wait-timeout`'s default and bound, in seconds. */
const DEFAULT_WAIT_SECONDS = 600;
const MAX_WAIT_SECONDS = 86_400;

/**
 * Refuses what the operation does not take before anything is read or sent: a query option of another
 * operation's row (every query flag is known to every operation, so the message can say which it takes), and
 * options that contradict one another.
 */
function checkOptions(operation: Operation, argv: ServiceArgv): void {
  const command = `bomwright service ${kebab(operation.name)}`;
  for (const option of ALL_QUERY_OPTIONS) {
    if (operation.query.includes(option) || argv[camelFlag(QUERY_FLAGS[option])] === undefined) continue;
    throw new BomwrightError(
      'E_USAGE',
      operation.query.length === 0
        ? `${command} takes no query options (the operations table gives it none), not --${QUERY_FLAGS[option]}`
        : `${command} takes the query options ${queryFlagList(operation)}, not --${QUERY_FLAGS[option]}`,
    );
  }
  const link = linkFlag(operation);
  if (link === undefined && argv.all !== undefined)
    throw new BomwrightError(
      'E_USAGE',
      `${command} answers in one piece (${operation.method}, no pages): --all is for the collections and delta rounds`,
    );
  const given = link === undefined ? undefined : argv[camelFlag(link)];
  if (given !== undefined) {
    const first = [
      ...pathParameters(operation).map(kebab),
      ...operation.query.map((option) => QUERY_FLAGS[option]),
    ].filter((flag) => argv[camelFlag(flag)] !== undefined);
    if (first.length > 0)
      throw new BomwrightError(
        'E_USAGE',
        `--${link} starts from the saved link unchanged: it already holds the path and the query options, so --${first.join(', --')} cannot be given with it`,
      );
  } else checkPathFlags(operation, argv, command);
  if (operation.body !== undefined && operation.body !== 'workbookSession' && argv.body === undefined)
    throw new BomwrightError(
      'E_USAGE',
      `${command} needs --body: a JSON file, or - for standard input (bomwright service openapi shows its shape)`,
    );
  if (argv.saveDeltaLink !== undefined && argv.all !== true)
    throw new BomwrightError(
      'E_USAGE',
      '--save-delta-link needs --all: the delta link comes on the last page of the round',
    );
  const size = argv.maxPageSize;
  if (size !== undefined && !(Number.isInteger(size) && size >= 1 && size <= MAX_PAGE_SIZE))
    throw new BomwrightError('E_USAGE', `--max-page-size takes a whole number from 1 to ${MAX_PAGE_SIZE}, not ${size}`);
  const timeout = argv.waitTimeout;
  if (timeout !== undefined) {
    if (!(Number.isFinite(timeout) && timeout > 0 && timeout <= MAX_WAIT_SECONDS))
      throw new BomwrightError(
        'E_USAGE',
        `--wait-timeout takes seconds above 0 and at most ${MAX_WAIT_SECONDS}, not ${String(timeout)}`,
      );
    if (argv.wait !== true) throw new BomwrightError('E_USAGE', '--wait-timeout bounds --wait: give --wait too');
  }
}

/**
 * The path flags given must be those of one path form of the operation (`--folder`, or `--user` with `--folder`):
 * said in flags here, where the client would say `{folder}`. `--user me` is the signed-in user's form.
 */
function checkPathFlags(operation: Operation, argv: ServiceArgv, command: string): void {
  const given = pathParameters(operation).filter(
    (name) => argv[name] !== undefined && !(name === 'user' && argv[name] === 'me'),
  );
  const forms = [
    ...new Set(
      operation.paths.map((template) => [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!).join(' ')),
    ),
  ].map((form) => (form === '' ? [] : form.split(' ')));
  if (forms.some((form) => form.length === given.length && form.every((name) => given.includes(name)))) return;
  const flags = (names: readonly string[]) => names.map((name) => `--${kebab(name)}`).join(' with ');
  const accepted = forms.map((form) => (form.length === 0 ? 'no path flag' : flags(form)));
  throw new BomwrightError(
    'E_USAGE',
    `${command} takes ${accepted.join(', or ')}; got ${given.length === 0 ? 'none' : flags(given)}`,
  );
}

/** A link given on the command line: the URL itself, or a file holding it (as --save-delta-link writes it). */
function savedLink(given: string, flag: string, cwd: string): string {
  if (/^https?:\/\//i.test(given)) return given;
  const file = path.resolve(cwd, given);
  // The file store reads synchronously; undefined when there is no such file.
  const link = deltaLinkFile(file).load();
  if (typeof link !== 'string')
    throw new BomwrightError('E_READ', `--${flag}: ${given} is neither a URL nor a file (no such file)`);
  return link;
}

/** Columns of a collection as a plain text table (scalars only; objects as JSON). */
/** Where a body stops being JSON, as ` (line L, column C)` (JSON.parse gives a snippet, not a place). */
export function jsonErrorPlace(text: string): string {
  const offset = Math.min(firstSyntaxError(text), text.length);
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return ` (line ${line}, column ${column}${offset === text.length ? ': it ends too soon' : ''})`;
}

function table(items: readonly unknown[]): string {
  const rows = items.filter((item): item is Record<string, unknown> => item !== null && typeof item === 'object');
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((c) => !c.startsWith('@odata.'));
  const cell = (value: unknown) => {
    const text = value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
    return text.length > 60 ? `${text.slice(0, 59)}…` : text;
  };
  const cells = rows.map((row) => columns.map((c) => cell(row[c])));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n') + '\n';
}

/** The failed items of a 207 (every item is inspected, as the spec asks): one line each, with what names it. */
function failedItems(body: unknown): string[] {
  const items = (body as { value?: unknown } | null)?.value;
  if (!Array.isArray(items)) return [];
  const lines: string[] = [];
  items.forEach((item: unknown, i) => {
    const record = item as { error?: unknown; userId?: unknown; id?: unknown } | null;
    const error = record?.error as { code?: unknown; message?: unknown } | null | undefined;
    if (error === null || error === undefined) return;
    const who =
      typeof record?.userId === 'string'
        ? `userId ${record.userId}`
        : typeof record?.id === 'string'
          ? `id ${record.id}`
          : undefined;
    const code = typeof error.code === 'string' && error.code !== '' ? error.code : 'unknown';
    const message = typeof error.message === 'string' ? error.message : '';
    lines.push(`${code}: ${message} (item ${i + 1} of ${items.length}${who === undefined ? '' : `, ${who}`})`);
  });
  return lines;
}

async function runOperation(operation: Operation, argv: ServiceArgv, context: CliContext): Promise<number> {
  checkOptions(operation, argv);
  const connection = serviceConnection(argv, context.env, context.cwd);
  let body: unknown;
  if (argv.body !== undefined) {
    // main() hands a lone "-" over as STDIN_TOKEN (yargs would read it as an empty option).
    const stdin = argv.body === STDIN_TOKEN || argv.body === STDIN;
    const source = stdin ? 'standard input' : argv.body;
    const { bytes, size } = await readInput(stdin ? STDIN : path.resolve(context.cwd, argv.body), MAX_SMALL_FILE);
    if (bytes === undefined)
      throw new BomwrightError('E_READ', `The body in ${source} is larger than ${MAX_SMALL_FILE} bytes (${size})`);
    const text = Buffer.from(bytes).toString('utf8');
    try {
      body = JSON.parse(text);
    } catch {
      throw new BomwrightError('E_USAGE', `The body in ${source} is not JSON${jsonErrorPlace(text)}`);
    }
  }
  const params: Record<string, string> = {};
  for (const name of pathParameters(operation)) {
    const value = argv[name];
    if (typeof value === 'string') params[name] = value;
  }
  const query: Record<string, string> = {};
  for (const option of operation.query) {
    const value = argv[camelFlag(QUERY_FLAGS[option])];
    if (value !== undefined) query[option] = String(value);
  }
  const link = linkFlag(operation);
  const given = link === undefined ? undefined : (argv[camelFlag(link)] as string | undefined);
  const startLink = given === undefined || link === undefined ? undefined : savedLink(given, link, context.cwd);
  // Sent on every page of the round, as the typed client's syncMessages does.
  const headers: Record<string, string> =
    argv.maxPageSize === undefined ? {} : { Prefer: `odata.maxpagesize=${argv.maxPageSize}` };
  const service = await loadService();
  const client = service.createServiceClient({ ...connection, toolVersion: context.toolVersion });
  const say = (text: string) => context.stdout(redactTokens(text, [connection.token]));
  try {
    let response;
    if (startLink !== undefined) {
      // A saved link is held to the rule every link from the service is held to: checked before it is sent.
      const what = `${operation.name}: the saved link (--${link!})`;
      service.checkSavedLink(client, startLink, operation, what);
      response = await client.call({ method: 'GET', path: startLink, linkFrom: what, headers });
    } else
      response = await service.invoke(client, operation.name, {
        params,
        query,
        body,
        headers,
        workbookSessionId: argv.workbookSessionId,
      });
    // Checked as the typed client checks it: a 2xx that is not what the operation answers is E_RESPONSE_SHAPE.
    const answer = service.checkAnswer(client, operation, response);
    if (answer.kind === 'operation' && argv.wait === true)
      return await waitForClone(service, client, answer.operationUrl, response, argv, context, connection.token);
    let output: unknown =
      answer.kind === 'none' || answer.kind === 'operation'
        ? { status: response.status, ...(response.headers.location ? { location: response.headers.location } : {}) }
        : response.body;
    const links: Record<string, string> = {};
    if (answer.kind === 'page') {
      let last = answer.page;
      if (argv.all) {
        const items: unknown[] = [];
        for await (const page of service.followPages(client, operation, response, { headers })) {
          items.push(...page.items);
          last = page;
        }
        output = { value: items };
      }
      if (last.nextLink !== undefined && !argv.all) links['@odata.nextLink'] = last.nextLink;
      if (last.deltaLink !== undefined) {
        // Not kept unless the next round could follow it.
        client.checkLink(last.deltaLink, `${operation.name}: @odata.deltaLink`);
        links['@odata.deltaLink'] = last.deltaLink;
      } else if (operation.response.kind === 'delta' && argv.all)
        throw new service.ServiceError(
          'E_RESPONSE_SHAPE',
          `${operation.name}: the last page of the round has no @odata.deltaLink`,
        );
      if (argv.all) output = { ...(output as object), ...links };
      if (argv.saveDeltaLink !== undefined)
        deltaLinkFile(path.resolve(context.cwd, argv.saveDeltaLink)).save(links['@odata.deltaLink']!);
    }
    // A page, or a 207's one result per item: both are rows.
    const rows =
      answer.kind === 'page' || (operation.response.kind === 'multiStatus' && response.status === 207)
        ? (output as { value?: unknown }).value
        : undefined;
    if (argv.format === 'table' && Array.isArray(rows)) {
      say(table(rows));
      for (const [name, value] of Object.entries(links))
        context.stderr(`${name}: ${redactTokens(value, [connection.token])}\n`);
    } else say(`${JSON.stringify(output, null, 2)}\n`);
    if (operation.response.kind === 'multiStatus' && response.status === 207) {
      const failed = failedItems(response.body);
      for (const line of failed)
        context.stderr(`bomwright: E_SERVICE: ${redactTokens(line.replace(/[\r\n]+/g, ' '), [connection.token])}\n`);
      if (failed.length > 0) return EXIT_INVALID;
    }
    return EXIT_OK;
  } catch (error) {
    if (service.isServiceError(error)) {
      context.stderr(serviceErrorLine(error, connection.token));
      return error.code === 'E_REQUEST_SHAPE' ? 2 : EXIT_INVALID;
    }
    throw error;
  } finally {
    await client.close();
  }
}

/** How to look at a clone's operation later: the get-team-operation command when its URL has the usual form. */
function followUp(url: string): string {
  const match = /\/teams\('?([^'()/]+)'?\)\/operations\('?([^'()/]+)'?\)$/.exec(url);
  return match === null
    ? `GET ${url}`
    : `bomwright service get-team-operation --team ${match[1]!} --operation ${match[2]!}`;
}

/**
 * `clone-team --wait`: the accepted clone's operation polled with the typed client's poller (about 5 s apart, or
 * as Retry-After says, within --wait-timeout), a progress line on a terminal only; prints the final operation
 * and the new team's id, exit 1 when the clone failed.
 */
async function waitForClone(
  service: ServiceModule,
  client: ServiceClient,
  url: string,
  accepted: CallResponse,
  argv: ServiceArgv,
  context: CliContext,
  token: string,
): Promise<number> {
  const seconds = argv.waitTimeout ?? DEFAULT_WAIT_SECONDS;
  const terminal = context.stderrStream?.isTTY === true ? context.stderrStream : undefined;
  let shown = false;
  const clear = () => {
    if (shown) terminal?.write('\r\x1b[K');
    shown = false;
  };
  let result: CloneResult;
  const waitStarted = Date.now();
  try {
    result = await service.waitForTeamClone(client, url, {
      deadlineMs: seconds * 1000,
      onPoll: ({ polls, elapsedMs, nextPollMs }) => {
        if (terminal === undefined) return;
        terminal.write(
          `\r\x1b[Kclone running: ${polls} poll${polls === 1 ? '' : 's'}, ${Math.round(elapsedMs / 1000)} s; next in ${Math.round(nextPollMs / 100) / 10} s`,
        );
        shown = true;
      },
    });
  } catch (error) {
    clear();
    // Only the deadline is --wait-timeout's; a poll budget or a retry budget spent says so itself.
    if (service.isServiceError(error) && error.code === 'E_TIMEOUT' && Date.now() - waitStarted >= seconds * 1000)
      throw new service.ServiceError(
        'E_TIMEOUT',
        `The clone was still running when --wait-timeout ${seconds} s ran out; follow it with ${followUp(url)}`,
      );
    throw error;
  }
  clear();
  const output = {
    status: accepted.status,
    location: accepted.headers.location,
    operation: result.operation,
    ...(result.teamId === undefined ? {} : { teamId: result.teamId }),
  };
  context.stdout(redactTokens(`${JSON.stringify(output, null, 2)}\n`, [token]));
  if (result.status === 'succeeded') return EXIT_OK;
  const why =
    result.error === undefined ? 'no reason given' : `${result.error.code ?? 'unknown'}: ${result.error.message ?? ''}`;
  context.stderr(`bomwright: E_SERVICE: the clone failed: ${redactTokens(why.replace(/[\r\n]+/g, ' '), [token])}\n`);
  return EXIT_INVALID;
}

function operationBuilder(operation: Operation) {
  return (y: Argv): Argv => {
    let built = y;
    for (const name of pathParameters(operation))
      built = built.option(kebab(name), {
        type: 'string',
        describe:
          name === 'user' ? 'user id or user principal name (default: me)' : `the ${kebab(name).replaceAll('-', ' ')}`,
      });
    // Every query flag is known to every operation, those of other rows hidden, so that one given here is refused
    // with the options this operation does take (checkOptions), not as an unknown word.
    for (const option of ALL_QUERY_OPTIONS)
      built = built.option(QUERY_FLAGS[option], {
        type: 'string',
        ...(operation.query.includes(option) ? { describe: `${option} query option` } : { hidden: true }),
      });
    if (operation.body !== undefined)
      built = built.option('body', { type: 'string', describe: 'request body: a JSON file, or - for standard input' });
    if (operation.headers?.includes('Workbook-Session-Id'))
      built = built.option('workbook-session-id', { type: 'string', describe: 'Workbook-Session-Id header' });
    const link = linkFlag(operation);
    // Only a paged GET (a collection or a delta round) has pages to follow; elsewhere --all is known but hidden,
    // so that it is refused saying why (checkOptions), not as an unknown word.
    built = built.option(
      'all',
      link === undefined
        ? { type: 'boolean', hidden: true }
        : {
            type: 'boolean',
            default: false,
            describe:
              link === 'delta-link'
                ? 'follow the round to its last page (and its @odata.deltaLink)'
                : 'follow @odata.nextLink to the end of the collection',
          },
    );
    if (link === 'delta-link')
      built = built
        .option('delta-link', {
          type: 'string',
          requiresArg: true,
          describe:
            'start from a saved @odata.deltaLink (or nextLink), sent unchanged: a URL, or a file --save-delta-link wrote',
        })
        .option('save-delta-link', {
          type: 'string',
          requiresArg: true,
          describe: "with --all: write the round's final @odata.deltaLink to FILE (atomically) for the next round",
        });
    else if (link === 'next-link')
      built = built.option('next-link', {
        type: 'string',
        requiresArg: true,
        describe: 'continue from a saved @odata.nextLink, sent unchanged: a URL, or a file holding it',
      });
    if (operation.headers?.includes('Prefer'))
      built = built.option('max-page-size', {
        type: 'number',
        requiresArg: true,
        describe: 'items per page: sends Prefer: odata.maxpagesize=N',
      });
    if (operation.response.kind === 'operation')
      built = built
        .option('wait', {
          type: 'boolean',
          describe:
            'poll the operation in Location until it is no longer running (about 5 s apart, or as Retry-After says); print it and the new id',
        })
        .option('wait-timeout', {
          type: 'number',
          requiresArg: true,
          describe: `with --wait: give up after this many seconds (default ${DEFAULT_WAIT_SECONDS}; E_TIMEOUT, exit 1)`,
        });
    return built.epilog(
      `Query options of ${kebab(operation.name)} (its row of the operations table): ${queryFlagList(operation)}.`,
    );
  };
}

/** The `service` family: one subcommand per operation of the table. */
export const serviceCommand: CliCommand = {
  command: 'service',
  register(parser, context, done) {
    return parser.command(
      'service <operation>',
      'Call the directory/collaboration service: every operation of the spec (service --help lists them)',
      (y) => {
        let built = connectionOptions(y.version(false), true).option('format', {
          choices: ['json', 'table'] as const,
          default: 'json' as const,
          describe: 'output',
          global: true,
        });
        built = built.command(
          'openapi',
          'Write an OpenAPI 3.1 description of every operation, generated from the same table',
          (o) =>
            o.option('output', { alias: 'o', type: 'string', describe: 'write to FILE instead of standard output' }),
          async (argv) => {
            const service = await loadService();
            const text = `${JSON.stringify(service.openApiDocument(context.toolVersion), null, 2)}\n`;
            const output = (argv as { output?: string }).output;
            if (output === undefined) context.stdout(text);
            else writeFileAtomic(path.resolve(context.cwd, output), text);
            done(EXIT_OK);
          },
        );
        for (const operation of OPERATIONS) {
          built = built.command(
            kebab(operation.name),
            `${operation.method} ${operation.paths[0]} — ${operation.summary}`,
            operationBuilder(operation),
            async (argv) => done(await runOperation(operation, argv as unknown as ServiceArgv, context)),
          );
        }
        return built.demandCommand(1, 'Name an operation, e.g. "bomwright service list-phone-methods"');
      },
    );
  },
};
