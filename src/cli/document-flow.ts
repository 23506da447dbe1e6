/**
 * Running a flow that changes a document with what the service knows (`enrich ...`, `import workbook`): the
 * document read strictly and refused when invalid, the flow run against the service, the change committed (next
 * version, signatures re-signed or dropped, never stale; nothing at all when nothing changed), validated, and
 * written atomically; `--dry-run` prints the change as a diff and writes nothing. A service error is one line
 * with its code and request-id, exit 1, and the document untouched.
 */
import type { Argv } from 'yargs';
import { diffDocuments } from '../compare/diff.js';
import { formatDiffText } from '../format/diff.js';
import { formatRefusal } from '../format/refusal.js';
import { commitChange, type CommitOptions } from '../flows/change.js';
import { existsSync } from 'node:fs';
import { BomwrightError } from '../errors.js';
import { loadEditable, writeEditable, type EditableDocument } from '../node/documents.js';
import { chooseKey, loadKeyFile } from '../node/keys.js';
import { isOwnStream, writeFileAtomic } from '../node/write.js';
import type { ServiceApi } from '../service/api.js';
import type { CliContext } from './command.js';
import { EXIT_INVALID, EXIT_OK } from './exit-codes.js';
import { dropSignaturesOption, keyOptions, passphraseFrom, rewriteOptions } from './options.js';
import { redactTokens } from '../service/errors.js';
import { outputSyntax, type Syntax } from '../document/syntax.js';
import { writeJsonModel, writeXmlModel } from '../document/write.js';
import { warnDropped, xmlSignatureStep } from './xml-resign.js';
import { connectionOptions, serviceConnection, withServiceClient } from './service-connection.js';

export interface FlowArgv {
  ca?: string;
  allowHost?: string[];
  /** The BOM; for a flow that can create one, absent means standard output. */
  file?: string;
  baseUrl?: string;
  token?: string;
  key?: string;
  keyId?: string;
  passphraseEnv?: string;
  certChain?: string;
  dropSignatures: boolean;
  dryRun: boolean;
  format: 'text' | 'json';
  output?: string;
  to?: Syntax;
}

/** The options every document flow takes. */
export function documentFlowOptions<T>(y: Argv<T>) {
  return rewriteOptions(
    dropSignaturesOption(
      keyOptions(connectionOptions(y), 'Re-sign what the change invalidates with this key'),
      'Remove the signatures the change invalidates (each is reported)',
    ),
  )
    .option('cert-chain', {
      type: 'string',
      describe: 'With --key: the PEM certificate path for signatures that carried one',
    })
    .option('dry-run', {
      type: 'boolean',
      default: false,
      describe: 'Print what would change, as a diff; call only read operations and write nothing',
    })
    .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Output format' });
}

/** Options that only mean something with --key (or without it) are refused rather than silently ignored. */
function refuseIgnoredKeyOptions(argv: FlowArgv): void {
  if (argv.key === undefined) {
    const given = [
      argv.keyId === undefined ? undefined : '--key-id',
      argv.passphraseEnv === undefined ? undefined : '--passphrase-env',
      argv.certChain === undefined ? undefined : '--cert-chain',
    ].filter((option) => option !== undefined);
    if (given.length > 0)
      throw new BomwrightError(
        'E_USAGE',
        `${given.join(', ')} ${given.length === 1 ? 'goes' : 'go'} with --key (the key that re-signs what the change invalidates): add --key FILE, or drop ${given.length === 1 ? 'it' : 'them'}`,
      );
  } else if (argv.dropSignatures)
    throw new BomwrightError(
      'E_USAGE',
      '--key re-signs what the change invalidates and --drop-signatures removes it: choose one',
    );
}

interface FlowRun {
  /** The changed working copy. */
  document: Record<string, unknown>;
  /** Service calls made. */
  calls: number;
  /** Lines for people, before the summary. */
  lines: string[];
  /** What `--format json` reports besides the commit. */
  report: unknown;
}

/**
 * Runs `flow` on the document of `argv.file` with a client of the service, and commits its change. With `create`,
 * a missing file (or none named: standard output) starts as the document it makes, written as it is, not bumped.
 */
export async function runDocumentFlow(
  argv: FlowArgv,
  context: CliContext,
  flow: (document: Record<string, unknown>, api: ServiceApi, dryRun: boolean) => Promise<FlowRun>,
  create?: () => Record<string, unknown>,
): Promise<number> {
  refuseIgnoredKeyOptions(argv);
  const connection = serviceConnection(argv, context.env, context.cwd);
  const fresh = create !== undefined && (argv.file === undefined || !existsSync(argv.file));
  const name = argv.file ?? 'standard output';
  let loaded: EditableDocument | undefined;
  if (!fresh) {
    if (argv.file === undefined) throw new BomwrightError('E_USAGE', 'Name the BOM to change');
    loaded = await loadEditable(argv.file);
    if (!loaded.valid) {
      context.stderr(
        formatRefusal(argv.file, loaded.diagnostics, (errors) => `refusing to change ${argv.file}: ${errors}`),
      );
      return EXIT_INVALID;
    }
  }
  const original = loaded?.value ?? create!();
  const commitOptions: CommitOptions = { dropSignatures: argv.dropSignatures };
  if (argv.key !== undefined) {
    commitOptions.key = chooseKey(argv.key, argv.keyId, passphraseFrom(argv.passphraseEnv, context.env));
    const certificatePath =
      argv.certChain === undefined ? undefined : loadKeyFile(argv.certChain).flatMap((k) => k.certificates ?? []);
    commitOptions.resign = {
      ...(argv.keyId === undefined ? {} : { keyId: argv.keyId }),
      ...(certificatePath === undefined ? {} : { certificatePath }),
    };
  }
  const ran = await withServiceClient(connection, context, (api) => flow(original, api, argv.dryRun));
  if (ran === undefined) return EXIT_INVALID;
  const run = ran.value;
  const commit = await commitChange(original, run.document, { ...commitOptions, fresh });
  if (!commit.valid) {
    context.stderr(
      formatRefusal(name, commit.diagnostics, (errors) => `refusing to write ${name}: the result has ${errors}`),
    );
    return EXIT_INVALID;
  }
  const diff = diffDocuments(original, commit.document);
  let target: string | undefined;
  if (commit.changed && !argv.dryRun) {
    if (loaded !== undefined) {
      if (loaded.source.xmlSigned && argv.key === undefined && !argv.dropSignatures)
        throw new BomwrightError(
          'E_USAGE',
          `${loaded.file} carries an XML signature, which the change invalidates: re-sign with --key, or remove it with --drop-signatures`,
        );
      target = writeEditable(loaded, commit.document, {
        output: argv.output,
        to: argv.to,
        signaturesHandled: argv.dropSignatures,
        onDrop: warnDropped(context.stderr),
        ...(loaded.source.xmlSigned
          ? {
              finish: xmlSignatureStep(loaded.source.text, {
                ...(commitOptions.key === undefined ? {} : { key: commitOptions.key }),
                ...(argv.keyId === undefined ? {} : { keyId: argv.keyId }),
                ...(commitOptions.resign?.certificatePath === undefined
                  ? {}
                  : { certificatePath: commitOptions.resign.certificatePath }),
              }),
            }
          : {}),
      });
    } else {
      const syntax = outputSyntax({ to: argv.to, output: argv.file });
      const text =
        syntax === 'xml'
          ? writeXmlModel(commit.document, { onDrop: warnDropped(context.stderr) })
          : writeJsonModel(commit.document);
      if (argv.file === undefined) {
        // The new BOM is the output; what is said about it goes to standard error.
        context.stdout(text);
        target = '-';
      } else {
        writeFileAtomic(argv.file, text);
        target = argv.file;
      }
    }
  }
  if (commit.droppedSignatures.length > 0 && !argv.dryRun)
    context.stderr(
      `bomwright: warning: removed ${commit.droppedSignatures.length} signature(s) that the change invalidated (${commit.droppedSignatures.join(', ')}); re-sign with bomwright sign\n`,
    );
  const to = target !== undefined && (target === '-' || isOwnStream(target)) ? context.stderr : context.stdout;
  // What is said about the run quotes the service (names, reasons): never with the token in it.
  const say = (text: string) => to(redactTokens(text, [connection.token]));
  if (argv.format === 'json') {
    say(
      `${JSON.stringify(
        {
          file: argv.file ?? null,
          created: fresh,
          changed: commit.changed,
          written: target ?? null,
          dryRun: argv.dryRun,
          version: commit.version,
          resigned: commit.resigned,
          droppedSignatures: commit.droppedSignatures,
          calls: run.calls,
          report: run.report,
          ...(argv.dryRun ? { diff } : {}),
        },
        null,
        2,
      )}\n`,
    );
    return EXIT_OK;
  }
  const calls = `${run.calls} service call${run.calls === 1 ? '' : 's'}`;
  const lines = [...run.lines];
  if (!commit.changed) lines.push(`${name} unchanged (version ${commit.version}; ${calls})`);
  else if (argv.dryRun) {
    lines.push(formatDiffText(diff).trimEnd());
    lines.push(`Would write ${name} as version ${commit.version} (dry run; ${calls})`);
  } else if (fresh) {
    lines.push(`Wrote ${target === '-' ? 'the new BOM to standard output' : `${target} (new)`} (${calls})`);
  } else {
    const resigned =
      commit.resigned > 0 ? `, re-signed ${commit.resigned} object${commit.resigned === 1 ? '' : 's'}` : '';
    lines.push(`Wrote ${target} as version ${commit.version}${resigned} (${calls})`);
  }
  say(`${lines.join('\n')}\n`);
  return EXIT_OK;
}
