import { BomwrightError, describeError, isBomwrightError } from '../../errors.js';
import { formatReports, totals, type FileReport, type OutputFormat } from '../../format/index.js';
import { DEFAULT_MAX_SIZE, validate, type SignatureMode, type ValidationResult } from '../../validate/index.js';
import { EXIT_INVALID, EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { looksLikeBom, readInput, resolveInputs, STDIN } from '../inputs.js';
import { displayPath, repositoryRoot } from '../paths.js';
import { writeFileAtomic } from '../write.js';
import type { TrustStore } from '../../jsf/trust.js';

export interface ValidateCommandOptions {
  paths: string[];
  format: OutputFormat;
  output?: string;
  maxWarnings?: number;
  quiet: boolean;
  specVersion?: string;
  signatures: SignatureMode;
  maxSize: number;
  trust?: TrustStore;
  requireTrusted?: boolean;
  allowExcludes?: string[];
  cwd: string;
  toolVersion: string;
  stdout: (text: string) => void;
}

export async function runValidate(options: ValidateCommandOptions): Promise<number> {
  const inputs = await resolveInputs(options.paths.length > 0 ? options.paths : ['.'], options.cwd);
  const root = repositoryRoot(options.cwd);
  const reports: FileReport[] = [];
  for (const input of inputs) {
    const isStdin = input.source === STDIN;
    const report: FileReport = {
      path: isStdin ? '<stdin>' : displayPath(input.source, options.cwd),
      uri: isStdin ? '<stdin>' : displayPath(input.source, root),
    };
    try {
      const { bytes, size } = await readInput(input.source, options.maxSize ?? DEFAULT_MAX_SIZE);
      if (bytes === undefined) {
        report.result = tooLarge(size, options.maxSize);
      } else if (!input.explicit && !looksLikeBom(bytes)) {
        continue; // other JSON found while searching (package.json, tsconfig.json...)
      } else {
        report.result = await validate(bytes, {
          ...(options.specVersion ? { specVersion: options.specVersion } : {}),
          signatures: options.signatures,
          maxSize: options.maxSize,
          ...(options.trust ? { trust: options.trust } : {}),
          ...(options.requireTrusted ? { requireTrusted: true } : {}),
          ...(options.allowExcludes ? { allowExcludes: options.allowExcludes } : {}),
        });
      }
    } catch (error) {
      if (!isBomwrightError(error) || error.code !== 'E_READ') throw error;
      report.failure = describeError(error);
    }
    reports.push(report);
  }
  if (reports.length === 0) {
    // Directories or patterns without a single BOM: a CI job must not pass by validating nothing.
    throw new BomwrightError('E_NO_MATCH', `No BOM documents found in ${options.paths.join(' ') || '.'}`);
  }

  const text = formatReports(options.format, reports, { quiet: options.quiet, toolVersion: options.toolVersion });
  if (options.output) writeFileAtomic(options.output, text);
  else options.stdout(text);

  const t = totals(reports);
  if (t.failures > 0) return EXIT_USAGE;
  if (t.errors > 0) return EXIT_INVALID;
  if (options.maxWarnings !== undefined && t.warnings > options.maxWarnings) return EXIT_INVALID;
  return EXIT_OK;
}

function tooLarge(size: number, maxSize: number): ValidationResult {
  return {
    diagnostics: [
      {
        ruleId: 'read/too-large',
        severity: 'error',
        message: `The file is ${size} bytes, over the --max-size limit of ${maxSize} bytes`,
        pointer: '',
      },
    ],
    errors: 1,
    warnings: 0,
    valid: false,
  };
}
