import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { truncate } from '../values.js';
import {
  CBOM_SPEC_VERSION_FORM,
  findFormatBySpecVersion,
  SPEC_FORMATS,
  supportedVersionsText,
  type SpecFormat,
} from './formats.js';

interface Route {
  format?: SpecFormat;
  diagnostics: Diagnostic[];
}

const KNOWN_BOM_FORMATS = new Set(SPEC_FORMATS.flatMap((f) => f.bomFormats));

/** bomFormat + specVersion → the format whose schema applies, or one clear diagnostic saying why there is none. */
export function routeDocument(value: unknown, forcedSpecVersion?: string): Route {
  const fail = (ruleId: Diagnostic['ruleId'], message: string, pointer = ''): Route => ({
    diagnostics: [{ ruleId, severity: 'error', message, pointer }],
  });
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return fail('bom/not-a-bom', `The document is ${kind}, not a BOM object`);
  }
  if (forcedSpecVersion !== undefined) {
    const format = findFormatBySpecVersion(forcedSpecVersion);
    // Usage errors are caught by the CLI before any document is read; this guards library callers.
    if (format === undefined) {
      return fail(
        'bom/unsupported-version',
        `Unsupported --spec-version ${JSON.stringify(forcedSpecVersion)}; supported: ${supportedVersionsText()}`,
      );
    }
    return { format, diagnostics: [] };
  }
  const record = value as Record<string, unknown>;
  const { bomFormat, specVersion } = record;
  if (bomFormat === undefined && specVersion === undefined) {
    if (typeof record.spdxVersion === 'string') {
      return fail('bom/not-a-bom', 'This is an SPDX document; bomwright validates CycloneDX and CBOM documents');
    }
    return fail('bom/not-a-bom', 'The JSON document has neither "bomFormat" nor "specVersion": it is not a BOM');
  }
  if (typeof bomFormat !== 'string' || !KNOWN_BOM_FORMATS.has(bomFormat)) {
    const shown = bomFormat === undefined ? 'missing' : truncate(JSON.stringify(bomFormat), 60);
    return fail(
      'bom/unsupported-version',
      `bomFormat is ${shown}; supported: ${[...KNOWN_BOM_FORMATS].join(', ')}`,
      bomFormat === undefined ? '' : '/bomFormat',
    );
  }
  if (specVersion === undefined) {
    return fail('bom/unsupported-version', `specVersion is missing; supported: ${supportedVersionsText()}`);
  }
  if (typeof specVersion !== 'string') {
    return fail(
      'bom/unsupported-version',
      `specVersion must be a string, not ${truncate(JSON.stringify(specVersion), 60)}; supported: ${supportedVersionsText()}`,
      '/specVersion',
    );
  }
  const cbomVersions = SPEC_FORMATS.filter((f) => f.family === 'cbom').map((f) => f.specVersion);
  if (bomFormat === 'CBOM' || specVersion.includes('-cbom-')) {
    const format = findFormatBySpecVersion(specVersion);
    if (!CBOM_SPEC_VERSION_FORM.test(specVersion)) {
      return fail(
        'cbom/spec-version',
        `CBOM specVersion ${truncate(JSON.stringify(specVersion), 60)} must have the form <major.minor>-cbom-<major.minor>; supported: ${cbomVersions.join(', ')}`,
        '/specVersion',
      );
    }
    if (format === undefined || format.family !== 'cbom' || !format.bomFormats.includes(bomFormat)) {
      return fail(
        'cbom/spec-version',
        `CBOM specVersion ${JSON.stringify(specVersion)} is not supported; supported: ${cbomVersions.join(', ')}`,
        '/specVersion',
      );
    }
    return { format, diagnostics: [] };
  }
  const format = findFormatBySpecVersion(specVersion);
  if (format === undefined || !format.bomFormats.includes(bomFormat)) {
    return fail(
      'bom/unsupported-version',
      `specVersion ${truncate(JSON.stringify(specVersion), 60)} is not supported; supported: ${supportedVersionsText()}`,
      '/specVersion',
    );
  }
  return { format, diagnostics: [] };
}
