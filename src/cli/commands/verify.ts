import { BomwrightError, describeError } from '../../errors.js';
import type { TrustStore } from '../../jsf/trust.js';
import { verifyDocument } from '../../jsf/verify.js';
import {
  gatePolicy,
  gateVerdict,
  judgeSignatures,
  misplacedSignatures,
  unsafeSignedNumbers,
  type GatePolicy,
} from '../../jsf/judge.js';
import { routeDocument } from '../../formats/route.js';
import { isRecord } from '../../values.js';
import { formatVerify, type VerifyFileReport, type VerifyFormat } from '../../format/verify.js';
import { loadTrustStore } from '../../node/keys.js';
import { defineCommand } from '../command.js';
import { gateTrustOptions, ONE_VALUE_PER_FLAG, restoreStdin } from '../options.js';
import { loadDocument } from '../../node/documents.js';
import { verifyXmlText } from '../../xml/signatures.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { displayPath } from '../../node/paths.js';

interface VerifyCommandOptions {
  files: string[];
  trust: TrustStore;
  /** What fails: see gatePolicy. */
  policy: GatePolicy;
  property: string;
  allowExcludes: string[];
  allowExtensions: string[];
  format: VerifyFormat;
  cwd: string;
  stdout: (text: string) => void;
}

async function verifyFile(file: string, options: VerifyCommandOptions): Promise<VerifyFileReport> {
  const path = file === '-' ? '<stdin>' : displayPath(file, options.cwd);
  let loaded: Awaited<ReturnType<typeof loadDocument>>;
  try {
    loaded = await loadDocument(file);
  } catch (error) {
    return { path, failure: describeError(error), operational: true, signatures: [], ok: false };
  }
  // XML signatures are checked on the text (verifyXmlText reads it, and says why when it cannot).
  if (loaded.syntax === 'xml' && loaded.text !== undefined) return verifyXmlFile(path, loaded.text, options);
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
  const value = loaded.model;
  const isBom = isRecord(value) && 'bomFormat' in value;
  // A BOM's format says where signatures may stand.
  const format = isBom ? routeDocument(value).format : undefined;
  const { reports, holders } = verifyDocument(value, {
    property: options.property,
    trust: options.trust,
    allowExcludes: options.allowExcludes,
    allowExtensions: options.allowExtensions,
    cyclonedx: isBom,
  });
  // The same verdict as validate's: one function; the gate's policy.
  const findings = [
    ...judgeSignatures(reports, options.policy),
    ...unsafeSignedNumbers(holders, options.property),
    ...(format === undefined || !isRecord(value)
      ? []
      : misplacedSignatures(value, holders, format.signable, options.property)),
  ];
  const problems = findings.filter((d) => d.ruleId === 'signature/unsafe-number' || d.ruleId === 'signature/misplaced');
  return {
    path,
    signatures: reports,
    ...(problems.length > 0 ? { problems } : {}),
    ...gateVerdict(reports.length, findings, options.policy),
  };
}

/** An XML document's signatures, under the same policy as JSF's. */
function verifyXmlFile(path: string, text: string, options: VerifyCommandOptions): VerifyFileReport {
  const result = verifyXmlText(text, { trust: options.trust });
  if ('problem' in result) {
    const where = result.line === undefined ? '' : ` at line ${result.line}, column ${result.column ?? 1}`;
    return { path, failure: `${result.problem}${where} [${result.ruleId}]`, signatures: [], ok: false };
  }
  const findings = judgeSignatures(result.reports, options.policy);
  return {
    path,
    signatures: result.reports.map(({ line: _line, column: _column, ...report }) => report),
    ...gateVerdict(result.reports.length, findings, options.policy),
  };
}

export const verifyCommand = defineCommand({
  command: 'verify <files..>',
  describe: 'Verify every signature in JSON documents (JSF) and CycloneDX XML (XML Signature), with trust',
  builder: (y) =>
    gateTrustOptions(
      y
        .positional('files', {
          type: 'string',
          array: true,
          demandOption: true,
          coerce: restoreStdin,
          describe: 'Documents to verify (- for standard input)',
        })
        .option('format', {
          alias: 'f',
          choices: ['text', 'json'] as const,
          default: 'text' as const,
          describe: 'Output format',
        })
        .option('require-signature', {
          type: 'boolean',
          describe: 'Documents without any signature fail (the default)',
        })
        .option('allow-unsigned', {
          type: 'boolean',
          default: false,
          describe: 'Documents without any signature pass',
        })
        .option('property', { type: 'string', default: 'signature', describe: 'Signature member name' })
        .option('allow-extensions', {
          type: 'string',
          ...ONE_VALUE_PER_FLAG,
          default: [] as string[],
          describe: 'JSF extension names to accept (not in CycloneDX)',
        }),
    ),
  handler: (argv, context) =>
    runVerify({
      files: argv.files,
      trust: loadTrustStore(argv.trust, argv.trustRoot),
      policy: gatePolicy({
        trustGiven: argv.trust.length > 0 || argv.trustRoot.length > 0,
        ...(argv.requireSignature === undefined ? {} : { requireSignature: argv.requireSignature }),
        allowUnsigned: argv.allowUnsigned,
        ...(argv.requireTrusted === undefined ? {} : { requireTrusted: argv.requireTrusted }),
        allowUntrusted: argv.allowUntrusted,
        allowUnverifiable: argv.allowUnverifiable,
      }),
      property: argv.property,
      allowExcludes: argv.allowExcludes,
      allowExtensions: argv.allowExtensions,
      format: argv.format,
      cwd: context.cwd,
      stdout: context.stdout,
    }),
});

async function runVerify(options: VerifyCommandOptions): Promise<number> {
  if (options.files.length === 0) throw new BomwrightError('E_USAGE', 'Name at least one file to verify');
  const verdicts: VerifyFileReport[] = [];
  for (const file of options.files) verdicts.push(await verifyFile(file, options));
  options.stdout(formatVerify(options.format, verdicts));
  if (verdicts.some((v) => v.operational)) return EXIT_USAGE;
  return verdicts.every((v) => v.ok) ? EXIT_OK : EXIT_INVALID;
}
