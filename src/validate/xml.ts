/**
 * CycloneDX XML: libxml2 checks the XML as XML (well-formedness, the official XSD of the version its namespace
 * names), then the mapping reader turns it into the data model the JSON rules walk, so bom-ref uniqueness,
 * dependency resolution, the serial number and version checks and the version rule are the JSON ones. Every
 * diagnostic's `pointer` is a readable XML location path (`/bom/components/component[3]/@bom-ref`).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { RuleId } from '../diagnostics/rules.js';
import { findFormatBySpecVersion, type SpecFormat } from '../formats/formats.js';
import { truncate } from '../values.js';
import { checkXml, type XmlProblem } from '../xml/engine.js';
import { rootVersion, startXmlWorker, xmlWorkerFor, type XmlWorkerCheck } from '../xml/engine-thread.js';
import { locator, ModelSink, resolveLibxmlPath, xmlPath, type XmlModel } from '../xml/model.js';
import { lineColumn, scanInto, scanXml, type XmlNode } from '../xml/scan.js';
import { supportedNamespacesText, xmlSpecVersion, XML_NAMESPACE_PREFIX, type XmlSpecVersion } from '../xml/versions.js';
import { judgeSignatures } from '../jsf/judge.js';
import type { TrustStore } from '../jsf/trust.js';
import type { SignerReport } from '../jsf/verify.js';
import { parseDom, verifyXmlDocument } from '../xml/signatures.js';
import { checkIdentity } from './checks/identity.js';
import { checkReferences } from './checks/references.js';
import { indexDocument } from './document-index.js';
import { evaluateProfiles, type ProfileResult } from './profiles/evaluate.js';
import type { Profile } from './profiles/model.js';
import { versionRule, type Baseline } from './version-rule.js';

/** XML text starts, after white space, with markup; JSON never does. */
export function looksLikeXml(text: string): boolean {
  return /^[\t\n\r ]*</.test(text);
}

const ACCEPTED_ENCODINGS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

export interface XmlValidation {
  diagnostics: Diagnostic[];
  formatId?: string;
  document?: Record<string, unknown>;
  profiles?: ProfileResult[];
}

export interface XmlValidateOptions {
  specVersion?: string;
  signatures?: 'verify' | 'require' | 'ignore';
  baseline?: Baseline;
  trust?: TrustStore;
  requireTrusted?: boolean;
  allowUnverifiable?: boolean;
  skipSignatureVerification?: boolean;
  /** Receives each signature's report (for validate's details). */
  reportsOut?: SignerReport[];
  profiles?: readonly Profile[];
}

/** The rules' view of an XML version: the JSON row of the same version (1.0 and 1.1 have none: 1.2's rules). */
function formatOf(version: XmlSpecVersion): SpecFormat {
  const row = findFormatBySpecVersion(version);
  if (row !== undefined && row.family === 'cyclonedx') return row;
  return { ...findFormatBySpecVersion('1.2')!, id: `cyclonedx-${version}`, specVersion: version };
}

/** Reads and checks one XML document (decoded UTF-8 text, without a byte-order mark). */
export async function validateXmlText(text: string, options: XmlValidateOptions = {}): Promise<XmlValidation> {
  // Line starts are indexed only when a finding needs a line (a valid document never does).
  let position: ((offset: number) => { line: number; column: number }) | undefined;
  const at = (offset: number) => (position ??= lineColumn(text))(offset);
  const declared = /^<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']/.exec(text)?.[1];
  if (declared !== undefined && !ACCEPTED_ENCODINGS.has(declared.toLowerCase())) {
    return {
      diagnostics: [
        {
          ruleId: 'read/unsupported-encoding',
          severity: 'error',
          message: `The XML declaration names encoding ${truncate(JSON.stringify(declared), 40)}; bomwright reads XML in UTF-8`,
          pointer: '',
          line: 1,
          column: 1,
        },
      ],
    };
  }
  // A large document's libxml2 check runs in a worker meanwhile (engine-thread.ts); the worker is stopped on
  // every way out.
  const file = xmlWorkerFor(text);
  const parallel = file === undefined ? undefined : startXmlWorker(file, text);
  try {
    return await readAndCheck(text, options, at, parallel);
  } finally {
    parallel?.stop();
  }
}

async function readAndCheck(
  text: string,
  options: XmlValidateOptions,
  at: (offset: number) => { line: number; column: number },
  parallel: XmlWorkerCheck | undefined,
): Promise<XmlValidation> {
  // The model is read straight from the text; the element tree (scanXml) is built only to locate a finding.
  const sink = new ModelSink();
  const failure = scanInto(text, sink);
  if (failure !== undefined && failure.kind !== 'syntax') {
    return {
      diagnostics: [
        {
          ruleId: failure.kind === 'doctype' ? 'xml/doctype' : 'xml/too-deep',
          severity: 'error',
          message: failure.message,
          pointer: '',
          ...at(failure.offset),
        },
      ],
    };
  }
  const root = failure === undefined ? sink.root : undefined;
  const version = root === undefined ? undefined : rootVersion(root);
  const checked = (await parallel?.result(version)) ?? (await checkXml(text, version));
  if (!checked.wellFormed || root === undefined) {
    // libxml2 is the authority on well-formedness; the reader's own finding stands only where libxml2 has none.
    const problem = checked.wellFormed ? undefined : checked.problems[0];
    const diagnostic: Diagnostic =
      problem !== undefined
        ? {
            ruleId: 'xml/syntax',
            severity: 'error',
            message: `Not well-formed XML: ${sentence(problem.message)}`,
            pointer: '',
            ...(problem.line > 0 ? { line: problem.line, column: Math.max(problem.column, 1) } : {}),
          }
        : {
            ruleId: 'xml/syntax',
            severity: 'error',
            message: `Not well-formed XML: ${failure === undefined ? 'unreadable' : failure.message}`,
            pointer: '',
            ...(failure === undefined ? {} : at(failure.offset)),
          };
    return { diagnostics: [diagnostic] };
  }
  const rootRoute = routeRoot(root, options.specVersion);
  if (rootRoute !== undefined) return { diagnostics: [{ ...rootRoute, ...at(root.offset) }] };
  const specVersion = version!;
  const format = formatOf(specVersion);

  const document = sink.document(specVersion);
  let tree: XmlNode | undefined;
  let locate: XmlModel['locate'] | undefined;
  const model: XmlModel = {
    document,
    locate: (pointer) => {
      tree ??= treeOf(text);
      locate ??= locator(tree);
      return locate(pointer);
    },
  };
  const fromSchema =
    checked.problems.length === 0 ? [] : schemaDiagnostics(checked.problems, (tree ??= treeOf(text)), at);
  const index = indexDocument(document);
  const ruleDiagnostics = [
    ...checkIdentity(document, format),
    ...checkReferences(document, format, index),
    ...versionRangeRule(document),
  ];
  if (options.baseline !== undefined) ruleDiagnostics.push(...versionRule(document, xmlBaseline(options.baseline)));
  const located = [
    ...ruleDiagnostics.map((d) => locateInModel(d, model, at)),
    ...signatureDiagnostics(sink.signed, text, options, options.reportsOut ?? []),
  ];
  // A rule that explains a place replaces the schema's complaint there (as for JSON).
  const explained = new Set(
    located.filter((d) => d.pointer !== '' && !d.ruleId.startsWith('signature/')).map((d) => d.pointer),
  );
  // A profile's finding never replaces the schema's complaint.
  const profiled =
    options.profiles === undefined || options.profiles.length === 0
      ? undefined
      : evaluateProfiles(document, options.profiles);
  return {
    diagnostics: [
      ...located,
      ...fromSchema.filter((d) => !explained.has(d.pointer)),
      ...(profiled?.diagnostics.map((d) => locateInModel(d, model, at)) ?? []),
    ],
    formatId: format.id,
    document,
    ...(profiled === undefined ? {} : { profiles: profiled.results }),
  };
}

/** The element tree of a text the model reader has read through (so it reads). */
function treeOf(text: string): XmlNode {
  const scanned = scanXml(text);
  if (!scanned.ok) throw new Error(`The XML reader disagrees with itself: ${scanned.message}`);
  return scanned.root;
}

/** Why the root is not a CycloneDX BOM this version of bomwright reads; undefined when it is one. */
function routeRoot(
  root: { name: string; local: string; namespace: string | undefined },
  forced: string | undefined,
): Omit<Diagnostic, 'line' | 'column'> | undefined {
  const namespace = root.namespace;
  if (root.local !== 'bom' || namespace === undefined || !namespace.startsWith(XML_NAMESPACE_PREFIX)) {
    const shown = namespace === undefined ? `<${root.name}>` : `<${root.name}> in namespace ${namespace}`;
    return {
      ruleId: 'bom/not-a-bom',
      severity: 'error',
      message: `The XML document's root is ${truncate(shown, 120)}, not a CycloneDX <bom>`,
      pointer: '',
    };
  }
  const version = xmlSpecVersion(namespace);
  if (version === undefined) {
    return {
      ruleId: 'bom/unsupported-version',
      severity: 'error',
      message: `XML namespace ${truncate(namespace, 80)} is not a supported CycloneDX version; supported: ${supportedNamespacesText()}`,
      pointer: '/bom',
    };
  }
  if (forced !== undefined && forced !== version) {
    return {
      ruleId: 'bom/unsupported-version',
      severity: 'error',
      message: `--spec-version ${truncate(forced, 20)} does not apply to XML: the namespace of this document says ${version}`,
      pointer: '/bom',
    };
  }
  return undefined;
}

/** 1.7: `versionRange` only on a component marked isExternal="true" (an XSD 1.1 assertion libxml2 cannot run). */
function versionRangeRule(document: Record<string, unknown>): Diagnostic[] {
  if (document.specVersion !== '1.7') return [];
  const found: Diagnostic[] = [];
  const visit = (components: unknown, pointer: string) => {
    if (!Array.isArray(components)) return;
    components.forEach((component: unknown, i) => {
      if (component === null || typeof component !== 'object') return;
      const record = component as Record<string, unknown>;
      const here = `${pointer}/${i}`;
      if (record.versionRange !== undefined && record.isExternal !== 'true' && record.isExternal !== '1')
        found.push({
          ruleId: 'schema/other',
          severity: 'error',
          message: 'versionRange is allowed only on a component marked isExternal="true"',
          pointer: `${here}/versionRange`,
        });
      visit(record.components, `${here}/components`);
    });
  };
  visit(document.components, '/components');
  const metadata = document.metadata as Record<string, unknown> | undefined;
  const component = metadata?.component as Record<string, unknown> | undefined;
  if (component !== undefined && typeof component === 'object') visit([component], '/metadata/component');
  return found.map((d) => ({ ...d, pointer: d.pointer.replace('/metadata/component/0', '/metadata/component') }));
}

/** Every XML signature in the document, judged as `bomwright verify` judges it; `require` also wants one. */
function signatureDiagnostics(
  signed: boolean,
  text: string,
  options: XmlValidateOptions,
  reportsOut: SignerReport[],
): Diagnostic[] {
  const mode = options.signatures ?? 'verify';
  if (mode === 'ignore' || options.skipSignatureVerification === true) return [];
  if (!signed)
    return mode === 'require'
      ? [
          {
            ruleId: 'signature/missing',
            severity: 'error',
            message: 'The document is not signed (signatures are required)',
            pointer: '',
          },
        ]
      : [];
  const dom = parseDom(text);
  if ('problem' in dom)
    return [
      { ruleId: 'signature/invalid', severity: 'error', message: `Invalid signature: ${dom.problem}`, pointer: '/bom' },
    ];
  const reports = verifyXmlDocument(dom.document, text, {
    ...(options.trust === undefined ? {} : { trust: options.trust }),
  });
  reportsOut.push(...reports);
  const judged = judgeSignatures(reports, {
    requireTrusted: options.requireTrusted === true,
    allowUnverifiable: options.allowUnverifiable === true,
  });
  const positions = new Map(reports.map((r) => [r.pointer, r]));
  return judged.map((d) => {
    const at = positions.get(d.pointer);
    return at?.line === undefined ? d : { ...d, line: at.line, column: at.column ?? 1 };
  });
}

/** The baseline for the version rule: XML text or bytes are read with the same mapping reader. */
function xmlBaseline(baseline: Baseline): Baseline {
  const input = baseline.document;
  const text = input instanceof Uint8Array ? new TextDecoder().decode(input) : input;
  if (typeof text !== 'string' || !looksLikeXml(text.replace(/^\uFEFF/, ''))) return baseline;
  const sink = new ModelSink();
  const read = scanInto(text, sink) === undefined;
  const version = read ? xmlSpecVersion(sink.root?.namespace) : undefined;
  const document = read && version !== undefined ? sink.document(version) : undefined;
  return { ...baseline, document };
}

/** A rule's diagnostic, with its pointer into the model turned into an XML location path and line:column. */
function locateInModel(
  diagnostic: Diagnostic,
  model: XmlModel,
  at: (offset: number) => { line: number; column: number },
): Diagnostic {
  const place = model.locate(diagnostic.pointer);
  // A message that ends with a pointer into the document names its XML path; one that ends in parentheses (an
  // absolute file name: "(compared with /work/old.xml)") is not about a place.
  const message = diagnostic.message.replace(/ (\/[^\s)]*)$/, (whole, pointer: string) => {
    const other = model.locate(pointer);
    return other === undefined ? whole : ` ${other.path}`;
  });
  if (place === undefined) return { ...diagnostic, message, pointer: diagnostic.pointer === '' ? '' : '/bom' };
  return { ...diagnostic, message, pointer: place.path, ...at(place.offset) };
}

/** XSD findings → diagnostics in the house style, one per place, with rule ids shared with JSON Schema's. */
function schemaDiagnostics(
  problems: readonly XmlProblem[],
  root: XmlNode,
  at: (offset: number) => { line: number; column: number },
): Diagnostic[] {
  const namespace = root.namespace!;
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const problem of problems) {
    const parsed = /^Element '([^']*)'(?:, attribute '([^']*)')?: ([\s\S]*)$/.exec(problem.message);
    const detail = sentence((parsed?.[3] ?? problem.message).replaceAll(`{${namespace}}`, ''));
    const ruleId = classify(detail);
    if (ruleId === undefined) continue;
    const node = problem.xpath === undefined ? undefined : resolveLibxmlPath(root, problem.xpath);
    const attributeName = parsed?.[2];
    const attribute =
      attributeName === undefined || node === undefined
        ? undefined
        : node.attributes.find((a) => a.name === attributeName || `{${a.namespace}}${a.local}` === attributeName);
    const base = node === undefined ? '' : xmlPath(node);
    const pointer = attributeName === undefined ? base : `${base}/@${attributeName.replace(`{${namespace}}`, '')}`;
    // libxml2 follows a facet failure with the type failure it causes at the same place: one finding a place.
    if (seen.has(pointer)) continue;
    seen.add(pointer);
    const offset = attribute?.offset ?? node?.offset;
    out.push({
      ruleId,
      severity: 'error',
      message: detail,
      pointer,
      ...(offset !== undefined ? at(offset) : problem.line > 0 ? { line: problem.line, column: 1 } : {}),
    });
  }
  return out;
}

/** The rule of an XSD finding; undefined for findings a rule of bomwright reports better (bom-ref uniqueness). */
function classify(detail: string): RuleId | undefined {
  if (/Duplicate key-sequence .* identity-constraint '[^']*bom-ref'/.test(detail)) return undefined;
  if (/Duplicate key-sequence/.test(detail)) return 'schema/unique-items';
  // Only one element may come here, and it did not: a required element is missing (`Expected is ( name )`).
  if (
    /Missing child element|is required but missing|This element is not expected\. Expected is \( [^,()]+ \)$/.test(
      detail,
    )
  )
    return 'schema/required';
  if (/This element is not expected|attribute is not allowed|is not allowed/.test(detail) && !/content/.test(detail))
    return 'schema/additional-property';
  if (/is not an element of the set/.test(detail)) return 'schema/enum';
  if (/is not accepted by the pattern/.test(detail)) return 'schema/pattern';
  if (
    /facet '(?:minLength|maxLength|length|minInclusive|maxInclusive|minExclusive|maxExclusive|totalDigits|fractionDigits)'/.test(
      detail,
    )
  )
    return 'schema/bounds';
  if (/is not a valid value of the|content|not a valid/.test(detail)) return 'schema/type';
  return 'schema/other';
}

/** One line, no trailing period (the house style for messages). */
function sentence(message: string): string {
  return message.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
}
