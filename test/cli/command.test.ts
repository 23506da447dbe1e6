import { describe, expect, it } from 'vitest';
import { defineCommand, type CliCommand } from '../../src/cli/command.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { main } from '../../src/cli/main.js';
import { BomwrightError } from '../../src/errors.js';

/** A family of commands generated from a table, the way `service <operation>` commands will be. */
const OPERATIONS = [
  { name: 'list-users', method: 'GET', path: '/users' },
  { name: 'get-user', method: 'GET', path: '/users/{id}', parameter: 'id' },
] as const;

function familyFrom(calls: string[]): CliCommand[] {
  return OPERATIONS.map((operation) =>
    defineCommand({
      command: `service-${operation.name}`,
      describe: `${operation.method} ${operation.path}`,
      builder: (y) =>
        y
          .option('param', { type: 'string', describe: 'Path parameter' })
          .option('top', { type: 'number', default: 10, describe: 'Page size' }),
      handler: (argv, context) => {
        if ('parameter' in operation && argv.param === undefined)
          throw new BomwrightError('E_USAGE', `${operation.name} needs --param`);
        calls.push(`${operation.method} ${operation.path.replace('{id}', argv.param ?? '')} top=${argv.top}`);
        context.stdout('ok\n');
        return 0;
      },
    }),
  );
}

async function run(argv: string[], commands: readonly CliCommand[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(
    { argv, cwd: process.cwd(), stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
    commands,
  );
  return { code, stdout, stderr };
}

describe('commands as modules', () => {
  it('registers every command from the list, once', () => {
    const names = COMMANDS.map((c) => c.command.split(' ')[0]);
    expect(names).toEqual([
      'validate',
      'merge-reports',
      'sign',
      'verify',
      'init',
      'add',
      'set',
      'hash',
      'bump',
      'normalize',
      'merge',
      'convert',
      'diff',
      'keygen',
      'explain',
      'enrich',
      'import',
      'publish',
      'notify',
      'emulator',
      'service',
    ]);
  });

  it('plugs a table-generated family in the same way, argv typed by its builder', async () => {
    const calls: string[] = [];
    const commands = [...COMMANDS, ...familyFrom(calls)];
    expect(await run(['service-get-user', '--param', 'u1', '--top', '5'], commands)).toEqual({
      code: 0,
      stdout: 'ok\n',
      stderr: '',
    });
    expect(calls).toEqual(['GET /users/u1 top=5']);
    const missing = await run(['service-get-user'], commands);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('bomwright: E_USAGE: get-user needs --param\n');
    const unknown = await run(['service-get-user', '--nope'], commands);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('bomwright: E_USAGE: unknown option --nope; see "bomwright service-get-user --help"\n');
  });

  it('reports a handler failure on one line with its code, and document defects with exit 1', async () => {
    const failing = defineCommand({
      command: 'explode',
      describe: 'fails',
      builder: (y) => y,
      handler: () => {
        throw new BomwrightError('E_INPUT', 'the document is broken');
      },
    });
    expect(await run(['explode'], [failing])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'bomwright: E_INPUT: the document is broken\n',
    });
  });
});
