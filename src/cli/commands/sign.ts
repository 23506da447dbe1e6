import { BomwrightError } from '../../errors.js';
import type { JsfAlgorithm } from '../../jsf/algorithms.js';
import type { KeyMaterial } from '../../jsf/keys.js';
import { signDocumentCounted } from '../../jsf/sign-document.js';
import { resolveAlgorithm, type SignMode } from '../../jsf/sign.js';
import { validateAndParse } from '../../validate/index.js';
import { describeProblems, layoutOf, numbersThatWouldChange, serializeJson } from '../document-io.js';
import { EXIT_INVALID, EXIT_OK } from '../exit-codes.js';
import { loadKeyFile, readFileOrFail } from '../key-files.js';
import { writeFileAtomic } from '../write.js';

export interface SignCommandOptions {
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
  property: string;
  excludes: string[];
  passphrase?: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The signing key: a JWKS entry is chosen by --key-id; any other file must hold exactly one key. */
export function chooseKey(file: string, keyId: string | undefined, passphrase: string | undefined): KeyMaterial {
  const keys = loadKeyFile(file, passphrase === undefined ? {} : { passphrase });
  const candidates = keys.length > 1 && keyId !== undefined ? keys.filter((k) => k.keyId === keyId) : keys;
  if (candidates.length !== 1) {
    throw new BomwrightError(
      'E_KEY',
      keys.length > 1 ? `${file} holds ${keys.length} keys; choose one with --key-id` : `${file} holds no key`,
    );
  }
  return candidates[0]!;
}

export async function runSign(options: SignCommandOptions): Promise<number> {
  const bytes = readFileOrFail(options.file);
  // One parse serves the checks and the signing; the text is kept for its indentation and number literals.
  const {
    result,
    value,
    text: sourceText,
  } = await validateAndParse(bytes, {
    // Existing signatures must be well-formed (schema), but are not verified: signing does not vouch for them.
    signatures: 'verify',
    skipSignatureVerification: true,
  });
  const isBom =
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    ('bomFormat' in value || 'specVersion' in value);
  const unreadable = result.diagnostics.filter(
    (d) => d.severity === 'error' && (d.ruleId.startsWith('read/') || d.ruleId.startsWith('json/')),
  );
  if (sourceText === undefined || value === undefined || unreadable.length > 0)
    throw describeProblems(options.file, unreadable.length > 0 ? unreadable : result.diagnostics);
  if (isBom && !result.valid) {
    // A signature vouches for a document: refuse to vouch for an invalid one.
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    for (const d of errors)
      options.stderr(
        `${options.file}:${d.line ?? 1}:${d.column ?? 1}  error  ${d.message}${d.pointer ? ` at ${d.pointer}` : ''}  ${d.ruleId}\n`,
      );
    options.stderr(
      `bomwright: refusing to sign ${options.file}: ${errors.length} validation error${errors.length === 1 ? '' : 's'}\n`,
    );
    return EXIT_INVALID;
  }
  const changed = numbersThatWouldChange(sourceText);
  if (changed.length > 0) {
    throw new BomwrightError(
      'E_INPUT',
      `${options.file} holds ${changed[0]}, which a JSON parser cannot represent exactly; signing would change it (write it as a string)`,
    );
  }
  const loaded = layoutOf(sourceText);

  const key = chooseKey(options.key, options.keyId, options.passphrase);
  const certificatePath =
    options.certChain === undefined ? undefined : loadKeyFile(options.certChain).flatMap((k) => k.certificates ?? []);
  if (certificatePath !== undefined && certificatePath.length === 0)
    throw new BomwrightError('E_KEY', `${options.certChain} holds no certificate`);
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

  const text = serializeJson(signed, loaded);
  const target = options.output ?? options.file;
  writeFileAtomic(target, text);
  const algorithm = resolveAlgorithm(key, options.algorithm).name;
  options.stdout(
    `Signed ${count} object${count === 1 ? '' : 's'} (${options.targets.join(', ')}) of ${options.file} with ${algorithm}${target === options.file ? '' : ` → ${target}`}\n`,
  );
  return EXIT_OK;
}
