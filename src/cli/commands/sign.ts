import { BomwrightError } from '../../errors.js';
import { JSF_ALGORITHMS, type JsfAlgorithm } from '../../jsf/algorithms.js';
import { defineCommand } from '../command.js';
import { keyOptions, ONE_VALUE_PER_FLAG, passphraseFrom, rewriteOptions } from '../options.js';
import { signDocumentCounted } from '../../jsf/sign-document.js';
import { resolveAlgorithm, type SignMode } from '../../jsf/sign.js';
import { editSyntax, loadEditable, writeEditable, type EditableDocument } from '../../node/documents.js';
import type { Syntax } from '../../document/syntax.js';
import { warnDropped } from '../xml-resign.js';
import { isOwnStream, writeFileAtomic } from '../../node/write.js';
import { signXmlText } from '../../xml/sign.js';
import { formatRefusal } from '../../format/refusal.js';
import { refuseOverwriting } from '../../node/paths.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import { chooseKey, loadKeyFile } from '../../node/keys.js';

interface SignCommandOptions {
  file: string;
  key: string;
  algorithm?: JsfAlgorithm;
  keyId?: string;
  publicKey?: boolean;
  certChain?: string;
  noKeyInfo: boolean;
  targets: string[];
  mode: SignMode;
  output?: string;
  to?: Syntax;
  property: string;
  excludes: string[];
  passphrase?: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const signCommand = defineCommand({
  command: 'sign <file>',
  describe:
    'Sign a document in place: JSON with JSF (root, inner objects, signers or chain), CycloneDX XML with an enveloped XML Signature',
  builder: (y) =>
    rewriteOptions(
      keyOptions(
        y.positional('file', {
          type: 'string',
          demandOption: true,
          describe: 'The JSON or CycloneDX XML document to sign',
        }),
        'Private key: PEM (PKCS#8, SEC1, PKCS#1), JWK, JWKS (choose with --key-id), or an HMAC secret (oct JWK or hex)',
      ),
      'Write the signed document here instead of in place',
    )
      .demandOption('key')
      .option('alg', { choices: JSF_ALGORITHMS, describe: 'Algorithm (default: follows from the key)' })
      .option('public-key', {
        type: 'boolean',
        describe:
          'Embed the public key (JSON: the default without --key-id or --cert-chain; XML: as KeyValue, only when given)',
      })
      .option('cert-chain', {
        type: 'string',
        describe: 'PEM certificate path (leaf first) to embed as certificatePath',
      })
      // Declared as key-info so that yargs' boolean negation makes --no-key-info (a `no-` option is refused).
      .option('key-info', {
        type: 'boolean',
        default: true,
        describe: 'Embed key information; --no-key-info embeds none (no publicKey, keyId or certificatePath)',
      })
      .option('target', {
        alias: 't',
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        default: ['root'],
        describe:
          'What to sign: root, components, services, all, or a bom-ref (repeatable; inner objects first, root last)',
      })
      .option('add', { type: 'boolean', describe: 'Add a signer (make or extend "signers")' })
      .option('chain', { type: 'boolean', describe: 'Append to a signature chain (make or extend "chain")' })
      .option('property', { type: 'string', default: 'signature', describe: 'Signature member name' })
      .option('excludes', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        default: [] as string[],
        describe: 'Top-level members to leave unsigned (single signatures)',
      })
      .conflicts('add', 'chain'),
  handler: (argv, context) =>
    runSign({
      file: argv.file,
      key: argv.key,
      algorithm: argv.alg,
      keyId: argv.keyId,
      publicKey: argv.publicKey,
      certChain: argv.certChain,
      noKeyInfo: !argv.keyInfo,
      targets: argv.target,
      mode: argv.add ? 'add' : argv.chain ? 'chain' : 'single',
      output: argv.output,
      to: argv.to,
      property: argv.property,
      excludes: argv.excludes,
      passphrase: passphraseFrom(argv.passphraseEnv, context.env),
      stdout: context.stdout,
      stderr: context.stderr,
    }),
});

/**
 * The key and certificate path a signature is made with, for JSON and XML alike; `-o` may not name either file (a
 * typo would overwrite the key).
 */
function signingMaterial(options: SignCommandOptions) {
  if (options.output !== undefined)
    refuseOverwriting(options.output, [
      { file: options.key, role: 'the signing key' },
      ...(options.certChain === undefined ? [] : [{ file: options.certChain, role: 'the certificate chain' }]),
    ]);
  const key = chooseKey(options.key, options.keyId, options.passphrase);
  const certificatePath =
    options.certChain === undefined ? undefined : loadKeyFile(options.certChain).flatMap((k) => k.certificates ?? []);
  if (certificatePath !== undefined && certificatePath.length === 0)
    throw new BomwrightError('E_KEY', `${options.certChain} holds no certificate`);
  return { key, certificatePath };
}

async function runSign(options: SignCommandOptions): Promise<number> {
  // The same strict read as every rewriting command, in either syntax: one parse, layout kept, unsafe numbers refused.
  const document = await loadEditable(options.file);
  const value = document.value;
  if (('bomFormat' in value || 'specVersion' in value) && !document.valid) {
    // A signature vouches for a document: refuse to vouch for an invalid one.
    options.stderr(
      formatRefusal(options.file, document.diagnostics, (errors) => `refusing to sign ${options.file}: ${errors}`),
    );
    return EXIT_INVALID;
  }
  if (editSyntax(document, { output: options.output, to: options.to }) === 'xml') return runSignXml(options, document);

  const { key, certificatePath } = signingMaterial(options);
  const embedPublicKey = options.noKeyInfo
    ? false
    : (options.publicKey ?? (options.keyId === undefined && certificatePath === undefined && key.family !== 'oct'));
  const { document: signed, signed: count } = signDocumentCounted(value, {
    key,
    ...(options.algorithm ? { algorithm: options.algorithm } : {}),
    publicKey: embedPublicKey,
    ...(options.keyId !== undefined && !options.noKeyInfo ? { keyId: options.keyId } : {}),
    ...(certificatePath !== undefined && !options.noKeyInfo ? { certificatePath } : {}),
    mode: options.mode,
    property: options.property,
    excludes: options.excludes,
    targets: options.targets,
  });

  // Signing is what makes the output's signatures: an XML signature of the source does not come along.
  const target = writeEditable(document, signed, { output: options.output, to: 'json', signaturesHandled: true });
  const algorithm = resolveAlgorithm(key, options.algorithm).name;
  (isOwnStream(target) ? options.stderr : options.stdout)(
    `Signed ${count} object${count === 1 ? '' : 's'} (${options.targets.join(', ')}) of ${options.file} with ${algorithm}${target === options.file ? '' : ` → ${target}`}\n`,
  );
  return EXIT_OK;
}

/**
 * CycloneDX XML: one enveloped XML signature over the whole document, in CycloneDX CLI's form; key information
 * only when asked for (--public-key, --key-id, --cert-chain), as CycloneDX CLI writes none. An XML document is
 * signed in its own text (nothing else rewritten); a JSON one is written as XML first.
 */
async function runSignXml(options: SignCommandOptions, document: EditableDocument): Promise<number> {
  const jsonOnly = [
    options.targets.length !== 1 || options.targets[0] !== 'root' ? '--target' : undefined,
    options.mode === 'add' ? '--add' : options.mode === 'chain' ? '--chain' : undefined,
    options.property !== 'signature' ? '--property' : undefined,
    options.excludes.length > 0 ? '--excludes' : undefined,
  ].filter((o) => o !== undefined);
  if (jsonOnly.length > 0)
    throw new BomwrightError(
      'E_USAGE',
      `${jsonOnly.join(', ')} ${jsonOnly.length === 1 ? 'applies' : 'apply'} to JSON only: an XML signature covers the whole document`,
    );
  const { key, certificatePath } = signingMaterial(options);
  const text =
    document.source.syntax === 'xml'
      ? (document.source.byteOrderMark ? '\uFEFF' : '') + document.source.text
      : document.source.write(document.value, { to: 'xml', onDrop: warnDropped(options.stderr) });
  const signed = signXmlText(text, {
    key,
    ...(options.algorithm ? { algorithm: options.algorithm } : {}),
    publicKey: !options.noKeyInfo && options.publicKey === true,
    ...(options.keyId !== undefined && !options.noKeyInfo ? { keyId: options.keyId } : {}),
    ...(certificatePath !== undefined && !options.noKeyInfo ? { certificatePath } : {}),
  });
  const target = options.output ?? options.file;
  writeFileAtomic(target, signed.text);
  (isOwnStream(target) ? options.stderr : options.stdout)(
    `Signed ${options.file} (XML signature over the whole document) with ${signed.algorithm}${target === options.file ? '' : ` → ${target}`}\n`,
  );
  return EXIT_OK;
}
