/**
 * A new, valid document: identity (a fresh serial number, version 1), a timestamp, bomwright as the tool in
 * the shape of the chosen version, and the component the BOM describes, given directly or read from a
 * package.json.
 */
import { BomwrightError } from '../errors.js';
import { isIriReference } from '../validate/iri.js';
import {
  DEFAULT_SPEC_VERSION,
  findFormatBySpecVersion,
  supportedVersionsText,
  type SpecFormat,
} from '../formats/formats.js';
import { buildComponent, contactFromText, withPurlFields, type ComponentFields } from './elements.js';
import { isoSeconds } from './document.js';
import { newSerialNumber, type RandomBytes } from './serial-number.js';
import { isRecord } from '../values.js';

export interface InitOptions {
  /** Default `cyclonedx`, or the family of `specVersion`. */
  format?: 'cyclonedx' | 'cbom';
  /** Default `1.6` (CycloneDX) or `1.4-cbom-1.0` (CBOM). */
  specVersion?: string;
  /** The component the BOM describes; its fields override those derived from `packageJson`. */
  component?: Partial<ComponentFields>;
  /** A parsed package.json: name, version, description, license, homepage and repository are used. */
  packageJson?: Record<string, unknown>;
  /** The timestamp (default: now). */
  now?: Date;
  /** Random bytes for the serial number (default: crypto.randomUUID). */
  random?: RandomBytes;
  /** bomwright's own version, named in metadata.tools. */
  toolVersion: string;
  /** Who wrote the BOM (metadata.authors): `Jane Doe <jane@example.com>`, or contact objects. */
  authors?: readonly (string | Record<string, unknown>)[];
}

function chooseFormat(options: InitOptions): SpecFormat {
  const family = options.format ?? (options.specVersion?.includes('-cbom-') ? 'cbom' : 'cyclonedx');
  const specVersion = options.specVersion ?? DEFAULT_SPEC_VERSION[family];
  const format = findFormatBySpecVersion(specVersion);
  if (format === undefined)
    throw new BomwrightError(
      'E_USAGE',
      `Unsupported spec version ${JSON.stringify(specVersion)}; supported: ${supportedVersionsText()}`,
    );
  if (format.family !== family)
    throw new BomwrightError(
      'E_USAGE',
      `Spec version ${specVersion} is not a ${family === 'cbom' ? 'CBOM' : 'CycloneDX'} version`,
    );
  return format;
}

/** purl type npm: a scope's `@` is percent-encoded, each segment and the version are encoded. */
export function npmPurl(name: string, version?: string): string {
  const path = name.split('/').map(encodeURIComponent).join('/');
  return `pkg:npm/${path}${version === undefined ? '' : `@${encodeURIComponent(version)}`}`;
}

/** package.json `repository` shorthands (`user/repo`, `github:user/repo`, `git@host:path`) as URLs. */
function repositoryUrl(repository: unknown): string | undefined {
  const raw = isRecord(repository) ? repository.url : repository;
  if (typeof raw !== 'string' || raw === '') return undefined;
  const hosts: Record<string, string> = {
    github: 'https://github.com/',
    gitlab: 'https://gitlab.com/',
    bitbucket: 'https://bitbucket.org/',
  };
  const shorthand = /^(?:(github|gitlab|bitbucket):)?([\w.-]+\/[\w.-]+)$/.exec(raw);
  if (shorthand) return `${hosts[shorthand[1] ?? 'github']}${shorthand[2]}`;
  const scp = /^([\w.-]+@[\w.-]+):(?!\/\/)(.+)$/.exec(raw);
  if (scp) return `git+ssh://${scp[1]}/${scp[2]}`;
  return raw;
}

/** package.json `license` (a string, or the legacy `{ type }` object and `licenses` list). */
function packageLicenses(pkg: Record<string, unknown>): string[] | undefined {
  const one = (value: unknown): string | undefined =>
    typeof value === 'string' ? value : isRecord(value) && typeof value.type === 'string' ? value.type : undefined;
  const license = one(pkg.license);
  if (license !== undefined) return license === 'UNLICENSED' ? undefined : [license];
  if (Array.isArray(pkg.licenses)) {
    const all = pkg.licenses.map(one).filter((l): l is string => l !== undefined);
    return all.length > 0 ? all : undefined;
  }
  return undefined;
}

/**
 * The component a package.json describes, with the fields `given` (command-line options) over it: init's
 * component and merge's product. The purl made from the package.json names a version; a version given instead
 * is the purl's too, and so the bom-ref's, which is made from the purl (a purl given is kept as given).
 */
export function describedComponent(
  pkg: Record<string, unknown> | undefined,
  given: Partial<ComponentFields> = {},
): Partial<ComponentFields> {
  return { ...(pkg === undefined ? {} : componentFromPackageJson(pkg, given.version)), ...given };
}

/** The application a package.json describes, as component fields; `version` instead of the package.json's. */
export function componentFromPackageJson(pkg: Record<string, unknown>, version?: string): Partial<ComponentFields> {
  const fullName = typeof pkg.name === 'string' && pkg.name !== '' ? pkg.name : undefined;
  version ??= typeof pkg.version === 'string' && pkg.version !== '' ? pkg.version : undefined;
  const scoped = fullName?.startsWith('@') === true && fullName.includes('/');
  const externalReferences: Record<string, unknown>[] = [];
  // Only URLs the schema accepts: a malformed homepage must not make the new document invalid.
  if (typeof pkg.homepage === 'string' && pkg.homepage !== '' && isIriReference(pkg.homepage))
    externalReferences.push({ type: 'website', url: pkg.homepage });
  const vcs = repositoryUrl(pkg.repository);
  if (vcs !== undefined && isIriReference(vcs)) externalReferences.push({ type: 'vcs', url: vcs });
  const fields: Partial<ComponentFields> = { type: 'application' };
  if (fullName !== undefined) {
    fields.group = scoped ? fullName.slice(0, fullName.indexOf('/')) : undefined;
    fields.name = scoped ? fullName.slice(fullName.indexOf('/') + 1) : fullName;
    fields.purl = npmPurl(fullName, version);
  }
  if (version !== undefined) fields.version = version;
  if (typeof pkg.description === 'string' && pkg.description !== '') fields.description = pkg.description;
  const licenses = packageLicenses(pkg);
  if (licenses !== undefined) fields.licenses = licenses;
  if (externalReferences.length > 0) fields.externalReferences = externalReferences;
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

function toolsFor(format: SpecFormat, version: string): unknown {
  // 1.5 replaced the tool list by components (the list is deprecated there); 1.2–1.4 and CBOM only have the list.
  return format.toolsAsComponents
    ? { components: [{ type: 'application', name: 'bomwright', version }] }
    : [{ vendor: 'bomwright', name: 'bomwright', version }];
}

/**
 * A new document of the chosen format and version. Throws E_USAGE for an unsupported version, a component
 * without a name, or (1.2, 1.3) a component without the version those schemas require.
 */
export function initDocument(options: InitOptions): Record<string, unknown> {
  const format = chooseFormat(options);
  if (typeof options.toolVersion !== 'string' || options.toolVersion === '')
    throw new BomwrightError('E_USAGE', "init needs toolVersion: bomwright's version, named in metadata.tools");
  const metadata: Record<string, unknown> = {
    timestamp: isoSeconds(options.now ?? new Date()),
    tools: toolsFor(format, options.toolVersion),
  };
  if (options.authors !== undefined && options.authors.length > 0)
    metadata.authors = options.authors.map((a) => (typeof a === 'string' ? contactFromText(a) : structuredClone(a)));
  if (options.component !== undefined || options.packageJson !== undefined) {
    const fields = withPurlFields(describedComponent(options.packageJson, options.component));
    if (typeof fields.name !== 'string' || fields.name === '')
      throw new BomwrightError('E_USAGE', 'The component needs a name (give one, or a package.json with "name")');
    if (fields.version === undefined && format.componentVersionRequired)
      throw new BomwrightError('E_USAGE', `CycloneDX ${format.specVersion} requires a component version`);
    metadata.component = buildComponent({ type: 'application', ...fields, name: fields.name }, format, new Set());
  }
  return {
    $schema: format.schemaAddress,
    bomFormat: format.family === 'cbom' ? 'CBOM' : 'CycloneDX',
    specVersion: format.specVersion,
    serialNumber: newSerialNumber(options.random),
    version: 1,
    metadata,
  };
}
