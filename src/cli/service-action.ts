/**
 * Running an action on the service that changes no document (`publish ...`, `notify ...`): `--dry-run` prints the
 * request that would be sent and sends nothing; a service error is one line with its code and request-id, exit 1.
 */
import type { Argv } from 'yargs';
import type { ServiceApi } from '../service/api.js';
import { redactTokens } from '../service/errors.js';
import type { CliContext } from './command.js';
import { EXIT_INVALID, EXIT_OK } from './exit-codes.js';
import { connectionOptions, loadServiceModule, serviceConnection, withServiceClient } from './service-connection.js';

export interface ActionArgv {
  ca?: string;
  allowHost?: string[];
  baseUrl?: string;
  token?: string;
  dryRun: boolean;
  format: 'text' | 'json';
}

export function serviceActionOptions<T>(y: Argv<T>) {
  return connectionOptions(y)
    .option('dry-run', {
      type: 'boolean',
      default: false,
      describe: 'Print the request that would be sent; send nothing',
    })
    .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' });
}

interface ActionOutcome {
  lines: string[];
  report: unknown;
}

export async function runServiceAction(
  argv: ActionArgv,
  context: CliContext,
  action: (api: ServiceApi, dryRun: boolean) => Promise<ActionOutcome>,
): Promise<number> {
  const connection = serviceConnection(argv, context.env, context.cwd);
  const ran = await withServiceClient(connection, context, (api) => action(api, argv.dryRun));
  if (ran === undefined) return EXIT_INVALID;
  const outcome = ran.value;
  // The lines quote the service's answer (a tab's name and URL...): never with the token in them.
  const say = (text: string) => context.stdout(redactTokens(text, [connection.token]));
  if (argv.format === 'json')
    say(`${JSON.stringify({ dryRun: argv.dryRun, ...(outcome.report as object) }, null, 2)}\n`);
  else say(`${outcome.lines.join('\n')}\n`);
  return EXIT_OK;
}

/**
 * What `--dry-run` shows of the request that would be sent: its method and URL from the operations table (the
 * service bundle is loaded already), and its body.
 */
export async function requestLine(
  api: ServiceApi,
  name: string,
  params: Record<string, string | undefined>,
  body: string,
): Promise<{ text: string; method: string; url: string }> {
  const service = await loadServiceModule();
  const operation = service.operationNamed(name)!;
  const url = `${api.transport.baseUrl}/v1.0${service.pathFor(operation, params, api.transport.odataNamespace)}`;
  return { text: `${operation.method} ${url} ${body}`, method: operation.method, url };
}
