/**
 * `bomwright service <operation>`: every operation of the table as a subcommand, generated from the table (names,
 * path parameters, query options, body), not written out by hand. The client (undici) is its own bundle, loaded
 * only when a service command runs.
 */
import path from 'node:path';
import type { Argv } from 'yargs';
import { BomwrightError } from '../../errors.js';
import { STDIN } from '../../node/discover.js';
import { MAX_SMALL_FILE, readInput } from '../../node/files.js';
import { writeFileAtomic } from '../../node/write.js';
import { STDIN_TOKEN } from '../options.js';
import { OPERATIONS, type Operation, type QueryOption } from '../../service/operations.js';
import type { CliCommand, CliContext } from '../command.js';
import { connectionOptions, loadServiceModule, serviceConnection, serviceErrorLine } from '../service-connection.js';
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
  all: boolean;
  format: 'json' | 'table';
  workbookSessionId?: string;
}

/** Columns of a collection as a plain text table (scalars only; objects as JSON). */
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

async function runOperation(operation: Operation, argv: ServiceArgv, context: CliContext): Promise<number> {
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
      throw new BomwrightError('E_USAGE', `The body in ${source} is not JSON`);
    }
  }
  const params: Record<string, string> = {};
  for (const name of pathParameters(operation)) {
    const value = argv[name];
    if (typeof value === 'string') params[name] = value;
  }
  const query: Record<string, string> = {};
  for (const option of operation.query) {
    const value = argv[QUERY_FLAGS[option].replace(/-(\w)/g, (_, c: string) => c.toUpperCase())];
    if (value !== undefined) query[option] = String(value);
  }
  const service = await loadService();
  const client = service.createServiceClient({ ...connection, toolVersion: context.toolVersion });
  try {
    const response = await service.invoke(client, operation.name, {
      params,
      query,
      body,
      workbookSessionId: argv.workbookSessionId,
    });
    // Checked as the typed client checks it: a 2xx that is not what the operation answers is E_RESPONSE_SHAPE.
    const answer = service.checkAnswer(client, operation, response);
    let output: unknown =
      answer.kind === 'none' || answer.kind === 'operation'
        ? { status: response.status, ...(response.headers.location ? { location: response.headers.location } : {}) }
        : response.body;
    const isCollection = answer.kind === 'page';
    if (isCollection && argv.all) {
      const items: unknown[] = [];
      for await (const page of service.followPages(client, operation, response)) items.push(...page.items);
      output = { value: items };
    }
    if (argv.format === 'table' && isCollection) context.stdout(table((output as { value: unknown[] }).value));
    else context.stdout(`${JSON.stringify(output, null, 2)}\n`);
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

function operationBuilder(operation: Operation) {
  return (y: Argv): Argv => {
    let built = y;
    for (const name of pathParameters(operation))
      built = built.option(kebab(name), {
        type: 'string',
        describe:
          name === 'user' ? 'user id or user principal name (default: me)' : `the ${kebab(name).replaceAll('-', ' ')}`,
      });
    for (const option of operation.query)
      built = built.option(QUERY_FLAGS[option], { type: 'string', describe: `${option} query option` });
    if (operation.body !== undefined)
      built = built.option('body', { type: 'string', describe: 'request body: a JSON file, or - for standard input' });
    if (operation.headers?.includes('Workbook-Session-Id'))
      built = built.option('workbook-session-id', { type: 'string', describe: 'Workbook-Session-Id header' });
    return built;
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
        let built = connectionOptions(y.version(false), true)
          .option('all', {
            type: 'boolean',
            default: false,
            describe: 'follow @odata.nextLink to the end of a collection',
            global: true,
          })
          .option('format', {
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
