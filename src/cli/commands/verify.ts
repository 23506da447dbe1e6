import { BomwrightError, describeError } from '../../errors.js';
import type { TrustStore } from '../../jsf/trust.js';
import { verifyDocument, type SignerReport } from '../../jsf/verify.js';
import { loadJsonFile } from '../../node/document-io.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { displayPath } from '../../node/paths.js';

export interface VerifyCommandOptions {
  files: string[];
  trust: TrustStore;
  requireTrusted: boolean;
  requireSignature: boolean;
  property: string;
  allowExcludes: string[];
  allowExtensions: string[];
  format: 'text' | 'json';
  cwd: string;
  stdout: (text: string) => void;
}

interface FileVerdict {
  path: string;
  /** Why the file could not be checked at all (unreadable, duplicate keys...). */
  failure?: string;
  /** Operational (exit 2) rather than a document defect (exit 1). */
  operational?: boolean;
  signatures: SignerReport[];
  ok: boolean;
}

function verifyFile(file: string, options: VerifyCommandOptions): FileVerdict {
  const path = displayPath(file, options.cwd);
  let loaded: ReturnType<typeof loadJsonFile>;
  try {
    loaded = loadJsonFile(file);
  } catch (error) {
    return { path, failure: describeError(error), operational: true, signatures: [], ok: false };
  }
  if ('problems' in loaded) {
    const first = loaded.problems[0];
    const where = first?.line === undefined ? '' : ` at line ${first.line}, column ${first.column ?? 1}`;
    // Rejected before any signature is looked at: parsers disagree on such documents.
    return {
      path,
      failure: `${first?.message ?? 'unreadable'}${where} [${first?.ruleId ?? 'json/syntax'}]`,
      signatures: [],
      ok: false,
    };
  }
  const isBom =
    loaded.value !== null &&
    typeof loaded.value === 'object' &&
    !Array.isArray(loaded.value) &&
    'bomFormat' in loaded.value;
  const { reports } = verifyDocument(loaded.value, {
    property: options.property,
    trust: options.trust,
    allowExcludes: options.allowExcludes,
    allowExtensions: options.allowExtensions,
    cyclonedx: isBom,
  });
  const bad = reports.some((r) => r.verdict !== 'valid' || (options.requireTrusted && r.trust !== 'trusted'));
  const missing = options.requireSignature && reports.length === 0;
  return {
    path,
    signatures: reports,
    ok: !bad && !missing,
    ...(missing ? { failure: 'the document has no signature (--require-signature)' } : {}),
  };
}

function describeReport(r: SignerReport): string {
  const key = `${r.keySource}${r.keyId === undefined ? '' : ` ${JSON.stringify(r.keyId)}`}`;
  const verdict =
    r.verdict === 'valid'
      ? `valid, ${r.trust}${r.trustReason ? ` (${r.trustReason})` : ''}`
      : `${r.verdict}: ${r.reason ?? ''}`;
  return `  ${r.pointer}  ${r.algorithm ?? '?'}  ${key}  ${verdict}`;
}

export function runVerify(options: VerifyCommandOptions): number {
  if (options.files.length === 0) throw new BomwrightError('E_USAGE', 'Name at least one file to verify');
  const verdicts = options.files.map((file) => verifyFile(file, options));
  if (options.format === 'json') {
    options.stdout(JSON.stringify({ reportVersion: 1, documents: verdicts }, null, 2) + '\n');
  } else {
    const lines: string[] = [];
    for (const v of verdicts) {
      lines.push(`${v.path}: ${v.ok ? 'OK' : 'FAILED'}${v.failure ? ` — ${v.failure}` : ''}`);
      lines.push(...v.signatures.map(describeReport));
    }
    const total = verdicts.reduce((n, v) => n + v.signatures.length, 0);
    const valid = verdicts.reduce((n, v) => n + v.signatures.filter((r) => r.verdict === 'valid').length, 0);
    const trusted = verdicts.reduce(
      (n, v) => n + v.signatures.filter((r) => r.verdict === 'valid' && r.trust === 'trusted').length,
      0,
    );
    lines.push(
      `${total} signature${total === 1 ? '' : 's'} in ${verdicts.length} document${verdicts.length === 1 ? '' : 's'}: ${valid} valid (${trusted} trusted), ${total - valid} not valid`,
    );
    options.stdout(lines.join('\n') + '\n');
  }
  if (verdicts.some((v) => v.operational)) return EXIT_USAGE;
  return verdicts.every((v) => v.ok) ? EXIT_OK : EXIT_INVALID;
}
