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
import { locator, ModelSink, type XmlModel } from '../xml/model.js';
import { elementAt, xmlPath } from '../xml/paths.js';
import { xmlMapping } from '../xml/mapping.js';
import type { MappedElement, MappedType, XmlMapping } from '../xml/xsd.js';
import { lineColumn, scanInto, scanXml, type XmlNode } from '../xml/scan.js';
import type { XmlSpecVersion } from '../xml/versions.js';
import { xmlRootProblem } from '../document/xml-root.js';
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

/** The declarations xmllint accepts for each encoding the bytes were in (UTF-8 bytes labelled UTF-16 it refuses). */
const ACCEPTED_ENCODINGS = {
  'UTF-8': new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']),
  'UTF-16': new Set(['utf-16', 'utf-16le', 'utf-16be', 'utf-8', 'utf8']),
};

interface XmlValidation {
  diagnostics: Diagnostic[];
  formatId?: string;
  document?: Record<string, unknown>;
  profiles?: ProfileResult[];
}

interface XmlValidateOptions {
  specVersion?: string;
  signatures?: 'verify' | 'require' | 'ignore';
  baseline?: Baseline;
  trust?: TrustStore;
  requireTrusted?: boolean;
  allowUnverifiable?: boolean;
  skipSignatureVerification?: boolean;
  /** The bytes were UTF-16 (document/decode.ts), not UTF-8. */
  encoding?: 'UTF-16LE' | 'UTF-16BE';
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
  // The decoder took the one byte-order mark an encoding may have; another is text before the document.
  if (text.charCodeAt(0) === 0xfeff)
    return {
      diagnostics: [
        {
          ruleId: 'xml/syntax',
          severity: 'error',
          message: 'Not well-formed XML: a second byte-order mark (U+FEFF) stands before the document',
          pointer: '',
          line: 1,
          column: 1,
        },
      ],
    };
  const read = options.encoding === undefined ? 'UTF-8' : 'UTF-16';
  const declared = /^<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']/.exec(text)?.[1];
  if (declared !== undefined && !ACCEPTED_ENCODINGS[read].has(declared.toLowerCase())) {
    return {
      diagnostics: [
        {
          ruleId: 'read/unsupported-encoding',
          severity: 'error',
          message: `The XML declaration names encoding ${truncate(JSON.stringify(declared), 40)}, but the document is ${options.encoding ?? 'UTF-8'}; bomwright reads XML in UTF-8 or UTF-16`,
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
  const rootRoute = xmlRootProblem(root, options.specVersion);
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
    checked.problems.length === 0
      ? []
      : await schemaDiagnostics(text, specVersion, checked.problems, (tree ??= treeOf(text)), at);
  const index = indexDocument(document);
  const ruleDiagnostics = [
    ...checkIdentity(document, format),
    ...checkReferences(document, format, index),
    ...versionRangeRule(document),
  ];
  if (options.baseline !== undefined) ruleDiagnostics.push(...versionRule(document, options.baseline));
  const located = [
    ...ruleDiagnostics.map((d) => locateInModel(d, model, at)),
    // The 1.1 dependency graph is an extension in its own namespace, outside the model: checked on the tree.
    ...(text.includes(DEPENDENCY_GRAPH) ? dependencyGraphRefs((tree ??= treeOf(text)), index.bomRefs, at) : []),
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
      : // An XML signature is the document's signature, though the model has no member for it: profiles that
        // ask whether the document is signed (cisa-2026) read it as the JSON form's `signature`.
        evaluateProfiles(
          sink.signed && !Object.hasOwn(document, 'signature')
            ? { ...document, signature: { xmldsig: true } }
            : document,
          options.profiles,
        );
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

const DEPENDENCY_GRAPH = 'http://cyclonedx.org/schema/ext/dependency-graph/1.0';

/**
 * The dependency-graph extension of CycloneDX 1.1 (`<dg:dependencies>` below the root, `<dg:dependency ref>`
 * nested to any depth): each ref must name a bom-ref of the document, as in the dependencies of 1.2 and later.
 */
function dependencyGraphRefs(
  root: XmlNode,
  bomRefs: ReadonlySet<string>,
  at: (offset: number) => { line: number; column: number },
): Diagnostic[] {
  const found: Diagnostic[] = [];
  const pending = root.children.filter((c) => c.namespace === DEPENDENCY_GRAPH && c.local === 'dependencies');
  while (pending.length > 0) {
    const node = pending.pop()!;
    for (const child of node.children)
      if (child.namespace === DEPENDENCY_GRAPH && child.local === 'dependency') pending.push(child);
    if (node.local !== 'dependency') continue;
    const ref = node.attributes.find((a) => a.namespace === undefined && a.local === 'ref');
    if (ref === undefined || bomRefs.has(ref.value)) continue;
    found.push({
      ruleId: 'ref/unresolved',
      severity: 'error',
      message: `Reference ${truncate(JSON.stringify(ref.value), 80)} does not match any bom-ref in the document`,
      pointer: `${xmlPath(node)}/@${ref.name}`,
      value: truncate(JSON.stringify(ref.value), 120),
      ...at(ref.offset),
    });
  }
  // In document order, as every other rule reports.
  return found.sort((a, b) => a.line! - b.line! || a.column! - b.column!);
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
      if (record.versionRange !== undefined && record.isExternal !== true)
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

/**
 * How many more times the document is checked with the elements libxml2 stopped at taken out. Each round judges
 * the children after one more unexpected element in every element at once, and costs one validation.
 */
const RESYNC_ROUNDS = 4;

/**
 * XSD findings → diagnostics in the house style, with rule ids shared with JSON Schema's: one per problem (only
 * the type failure libxml2 adds after a facet failure at the same place is dropped), values cut as JSON's are,
 * namespaces named where an element is foreign, and what is missing or out of order said from the XSD's content
 * model (the version's mapping lists each type's elements in the order the XSD requires).
 *
 * libxml2 stops judging an element's content at its first unexpected child. So that every later child is judged
 * too (its order, what is missing after it, its own content), the document is checked again with each such child
 * blanked out (spaces, line breaks kept), or, where the child only shows that a required element of text is
 * missing before it, with that element put in empty; the new findings are added, each once. A few rounds at
 * most; past them, later children are still checked for names their type does not declare.
 */
async function schemaDiagnostics(
  text: string,
  version: XmlSpecVersion,
  problems: readonly XmlProblem[],
  root: XmlNode,
  at: (offset: number) => { line: number; column: number },
): Promise<Diagnostic[]> {
  const mapping = xmlMapping(version);
  const judge = new SchemaJudge(root, mapping, at);
  let stopped = judge.add(problems, (path) => {
    const node = elementAt(root, path);
    return node === undefined ? undefined : { node, position: path.at(-1) ?? 0 };
  });
  const edits = new Edits();
  for (let round = 0; round < RESYNC_ROUNDS && stopped.length > 0; round++) {
    for (const { node, missing } of stopped) {
      const scalar =
        missing === undefined ? undefined : mappedType(node.parent!, mapping)?.elements.find((e) => e.xml === missing);
      if (missing !== undefined && scalar !== undefined && typeof scalar.type !== 'number' && !edits.hasInsert(node))
        edits.insertBefore(node, missing);
      else edits.remove(node);
    }
    const edited = edits.apply(text);
    if (edited === undefined) break;
    const again = await checkXml(edited, version);
    if (!again.wellFormed) break;
    const placing = edits.placing();
    stopped = judge.add(again.problems, (path) => placing.elementAt(root, path), edits);
  }
  return judge.finish();
}

/** Where libxml2 stopped in an element: the child it found unexpected, and the element missing before it. */
interface Stop {
  node: XmlNode;
  missing?: string;
}

/**
 * Children taken out of the document (blanked: spaces, line breaks kept, so lines stay) and required elements of
 * text put in empty before a child (`<name/>`, in the parent's prefix), for a check of what comes after them.
 */
class Edits {
  readonly removed = new Set<XmlNode>();
  private readonly inserted = new Map<XmlNode, string>();

  remove(node: XmlNode): void {
    this.inserted.delete(node);
    this.removed.add(node);
  }

  hasInsert(node: XmlNode): boolean {
    return this.inserted.has(node);
  }

  insertBefore(node: XmlNode, local: string): void {
    this.inserted.set(node, local);
  }

  /** The edited text; undefined if an element to take out has no known end. */
  apply(text: string): string | undefined {
    const edits: { start: number; end: number; text: string }[] = [];
    for (const node of this.removed) {
      if (node.end === undefined) return undefined;
      edits.push({
        start: node.offset,
        end: node.end,
        text: text.slice(node.offset, node.end).replace(/[^\r\n]/g, ' '),
      });
    }
    for (const [node, local] of this.inserted) {
      const name = node.parent!.name;
      const prefix = name.includes(':') ? name.slice(0, name.indexOf(':') + 1) : '';
      edits.push({ start: node.offset, end: node.offset, text: `<${prefix}${local}/>` });
    }
    edits.sort((a, b) => a.start - b.start || a.end - b.end);
    const parts: string[] = [];
    let from = 0;
    for (const edit of edits) {
      if (edit.start < from) continue; // inside an element already taken out
      parts.push(text.slice(from, edit.start), edit.text);
      from = edit.end;
    }
    parts.push(text.slice(from));
    return parts.join('');
  }

  /** Positions in the edited document as elements of the whole tree (undefined for an element put in). */
  placing(): ChildrenAfterEdits {
    return new ChildrenAfterEdits(this.removed, this.inserted);
  }
}

/**
 * Positions in the edited document, as elements of the whole tree: libxml2 counts the children left and the ones
 * put in. Each parent's children are listed once, on first need.
 */
class ChildrenAfterEdits {
  /** Per parent, the position (in the whole tree) of each child libxml2 sees; -1 for one put in. */
  private readonly seen = new Map<XmlNode, number[]>();

  constructor(
    private readonly removed: ReadonlySet<XmlNode>,
    private readonly inserted: ReadonlyMap<XmlNode, string>,
  ) {}

  /** The element at `path` of the edited document, and its position among all its parent's children. */
  elementAt(root: XmlNode, path: readonly number[]): Placed | undefined {
    let node = root;
    let position = 0;
    for (const step of path) {
      let positions = this.seen.get(node);
      if (positions === undefined) {
        const list: number[] = [];
        node.children.forEach((c, i) => {
          if (this.inserted.has(c)) list.push(-1);
          if (!this.removed.has(c)) list.push(i);
        });
        this.seen.set(node, (positions = list));
      }
      const at = positions[step];
      if (at === undefined || at < 0) return undefined;
      position = at;
      node = node.children[at]!;
    }
    return { node, position };
  }
}

/** An element and its position among its parent's children. */
interface Placed {
  node: XmlNode;
  position: number;
}

/** The findings of one or more libxml2 checks of a document, said once each. */
class SchemaJudge {
  private readonly namespace: string;
  private readonly seen = new Set<string>();
  private readonly out: Diagnostic[] = [];
  // libxml2 stops checking an element's attributes at the first failing one, and its content at the first
  // unexpected child: those elements are checked further below, for names their type does not declare.
  private readonly attributesFailed = new Set<XmlNode>();
  private readonly contentFailed = new Map<XmlNode, number>();
  /** Findings of later rounds come after the first round's, out of document order. */
  private resorted = false;

  constructor(
    private readonly root: XmlNode,
    private readonly mapping: XmlMapping,
    private readonly at: (offset: number) => { line: number; column: number },
  ) {
    this.namespace = root.namespace!;
  }

  /**
   * Adds the findings not said yet, from a check of the document without the `removed` elements; answers the
   * elements libxml2 found unexpected (it judged nothing after them).
   */
  add(
    problems: readonly XmlProblem[],
    elementOf: (path: readonly number[]) => Placed | undefined,
    edits?: Edits,
  ): Stop[] {
    const { namespace, seen, out, mapping, at } = this;
    const removed = edits?.removed ?? new Set<XmlNode>();
    if (edits !== undefined) this.resorted = true;
    const stops: Stop[] = [];
    for (const problem of problems) {
      const parsed = /^Element '([^']*)'(?:, attribute '([^']*)')?: ([\s\S]*)$/.exec(problem.message);
      const placed = problem.path === undefined ? undefined : elementOf(problem.path);
      // In an edited document, a finding about an element put in (or below it) is not the document's.
      if (edits !== undefined && problem.path !== undefined && placed === undefined) continue;
      const node = placed?.node;
      const raw = sentence(parsed?.[3] ?? problem.message);
      const foreign = node !== undefined && node.namespace !== namespace;
      const { detail, value } = cutValue(foreign ? raw : raw.replaceAll(`{${namespace}}`, ''));
      let ruleId = classify(detail);
      if (ruleId === undefined) continue;
      const attributeName = parsed?.[2];
      const attribute =
        attributeName === undefined || node === undefined
          ? undefined
          : node.attributes.find((a) => a.name === attributeName || `{${a.namespace}}${a.local}` === attributeName);
      const base = node === undefined ? '' : xmlPath(node);
      let pointer = attributeName === undefined ? base : `${base}/@${attributeName.replace(`{${namespace}}`, '')}`;
      let message = detail;
      const position = placed?.position ?? 0;
      const explained =
        node === undefined || attributeName !== undefined
          ? undefined
          : contentProblem(detail, node, position, namespace, mapping, removed);
      if (explained !== undefined)
        ({ ruleId, message, pointer } = { ...explained, pointer: explained.pointer ?? pointer });
      const isUnexpected = node?.parent !== undefined && /^This element is not expected/.test(detail);
      if (isUnexpected) {
        const missing = / \(before <[^<>]*>\)$/.test(message)
          ? /^Missing required <([^<>]*)>/.exec(message)?.[1]
          : undefined;
        stops.push(missing === undefined ? { node } : { node, missing });
      }
      // libxml2 follows a facet failure with the type failure it causes at the same place (`'value' is not a valid
      // value of the atomic type …`, or cut short with a long value). A required element found missing before one
      // child is the same finding when the next round finds it missing before the next child, or at the end.
      const key = `${pointer}\u0000${message.replace(/ \(before <[^<>]*>\)$/, '')}`;
      if (seen.has(key) || (seen.has(pointer) && raw.startsWith("'"))) continue;
      seen.add(key);
      seen.add(pointer);
      const offset = attribute?.offset ?? node?.offset;
      if (node !== undefined && attributeName !== undefined) this.attributesFailed.add(node);
      else if (isUnexpected && !this.contentFailed.has(node.parent!)) this.contentFailed.set(node.parent!, position);
      out.push({
        ruleId,
        severity: 'error',
        message,
        pointer,
        ...(value === undefined ? {} : { value }),
        ...(offset !== undefined ? at(offset) : problem.line > 0 ? { line: problem.line, column: 1 } : {}),
      });
    }
    return stops;
  }

  /** Every finding, in document order, with the undeclared names no round reached. */
  finish(): Diagnostic[] {
    const more = undeclaredNames(
      this.attributesFailed,
      this.contentFailed,
      this.namespace,
      this.mapping,
      this.seen,
      this.at,
    );
    if (more.length === 0 && !this.resorted) return this.out;
    return [...this.out, ...more].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  }
}

/**
 * The attributes and later children, of elements libxml2 stopped checking, that their type does not declare at
 * all: each is a finding of its own, as each unknown member is in JSON. (Only names no declaration has: whether a
 * declared one stands in order libxml2 did not go on to say.)
 */
function undeclaredNames(
  attributesFailed: ReadonlySet<XmlNode>,
  contentFailed: ReadonlyMap<XmlNode, number>,
  namespace: string,
  mapping: XmlMapping,
  seen: Set<string>,
  at: (offset: number) => { line: number; column: number },
): Diagnostic[] {
  const found: Diagnostic[] = [];
  const add = (pointer: string, message: string, offset: number) => {
    if (seen.has(pointer)) return;
    seen.add(pointer);
    found.push({ ruleId: 'schema/additional-property', severity: 'error', message, pointer, ...at(offset) });
  };
  for (const node of attributesFailed) {
    const type = node.namespace === namespace ? mappedType(node, mapping) : undefined;
    if (type === undefined) continue;
    for (const attribute of node.attributes)
      if (attribute.namespace === undefined && !type.attributes.some((a) => a.xml === attribute.local))
        add(
          `${xmlPath(node)}/@${attribute.name}`,
          `The attribute '${attribute.name}' is not allowed`,
          attribute.offset,
        );
  }
  for (const [parent, first] of contentFailed) {
    const type = parent.namespace === namespace ? mappedType(parent, mapping) : undefined;
    if (type === undefined || type.elements.length === 0) continue;
    for (let i = first + 1; i < parent.children.length; i++) {
      const child = parent.children[i]!;
      if (child.namespace === namespace && !type.elements.some((e) => e.xml === child.local))
        add(xmlPath(child), `<${child.local}> is not an element of <${parent.local}>`, child.offset);
    }
  }
  return found;
}

/** A value quoted in libxml2's message, cut as JSON's messages cut it (a 5 MB hash is not a 5 MB message). */
function cutValue(detail: string): { detail: string; value?: string } {
  const quoted = /^((?:\[facet '[^']*'\] The value )?)'([\s\S]*?)'( (?:is not|has a length)[\s\S]*)$/.exec(detail);
  if (quoted !== null) {
    const [, before, value, after] = quoted;
    return {
      detail: `${before}${truncate(JSON.stringify(value), 60)}${after}`,
      value: truncate(JSON.stringify(value), 120),
    };
  }
  // libxml2 cuts its messages at 64 KB, here inside the value: the facet still says what failed.
  const cut = /^((?:\[facet '([^']*)'\] The value )?)'([\s\S]*)$/.exec(detail);
  if (cut === null || detail.length < 60_000) return { detail };
  const [, before, facet, value] = cut;
  const failed =
    facet === 'pattern'
      ? 'is not accepted by the pattern of its type'
      : facet === 'enumeration'
        ? 'is not an element of the set of its type'
        : facet === undefined
          ? 'is not a valid value of its type'
          : `does not meet its type's facet '${facet}'`;
  return {
    detail: `${before}${truncate(JSON.stringify(value), 60)} ${failed}`,
    value: truncate(JSON.stringify(value), 120),
  };
}

/** The XSD type of `node` (an element of the document's namespace), walking the mapping from the root. */
function mappedType(node: XmlNode, mapping: XmlMapping): MappedType | undefined {
  const chain: XmlNode[] = [];
  for (let n: XmlNode | undefined = node; n?.parent !== undefined; n = n.parent) chain.push(n);
  let type: MappedType | undefined = mapping.types[mapping.root];
  for (const element of chain.reverse()) {
    const mapped: MappedElement | undefined = type?.elements.find((e) => e.xml === element.local);
    if (mapped === undefined || typeof mapped.type !== 'number') return undefined;
    type = mapping.types[mapped.type];
  }
  return type;
}

/**
 * What a content-model finding means, from the elements libxml2 expected and the order the XSD gives them: a
 * required element missing (the last one expected, when the element found belongs after it, or the content
 * ended), an element out of order, an element repeated, or an element of another namespace.
 */
function contentProblem(
  detail: string,
  node: XmlNode,
  position: number,
  namespace: string,
  mapping: XmlMapping,
  /** Elements a later check did not see (blanked out): not the one before. */
  removed: ReadonlySet<XmlNode>,
): { ruleId: RuleId; message: string; pointer?: string } | undefined {
  const found =
    /^(This element is not expected|Missing child element\(s\))\. Expected is (?:one of )?\( ([^()]*) \)$/.exec(detail);
  if (found === null) return undefined;
  const expected = found[2]!.split(', ');
  const last = expected[expected.length - 1]!;
  if (found[1]!.startsWith('Missing')) return { ruleId: 'schema/required', message: `Missing required <${last}>` };
  const parent = node.parent;
  if (parent === undefined) return undefined;
  if (node.namespace !== namespace)
    return {
      ruleId: 'schema/additional-property',
      message: `<${node.name}> (namespace ${truncate(node.namespace ?? 'none', 80)}) is not expected here; expected ${expected.map((e) => `<${e.replace(`{${namespace}}`, '')}>`).join(', ')} of the document's namespace`,
    };
  const type = mappedType(parent, mapping);
  if (type === undefined || expected.some((e) => e.includes('{'))) return undefined;
  const order = (name: string) => type.elements.findIndex((e) => e.xml === name);
  const here = order(node.local);
  if (here === -1)
    return { ruleId: 'schema/additional-property', message: `<${node.local}> is not an element of <${parent.local}>` };
  if (here > order(last) && order(last) !== -1)
    return {
      ruleId: 'schema/required',
      message: `Missing required <${last}> (before <${node.local}>)`,
      pointer: xmlPath(parent),
    };
  // The element before it in the document's namespace, found from its position (not by a search of all siblings:
  // 40,000 findings among 40,000 siblings).
  let previous: XmlNode | undefined;
  for (let i = position - 1; i >= 0 && previous === undefined; i--)
    if (parent.children[i]!.namespace === namespace && !removed.has(parent.children[i]!)) previous = parent.children[i];
  if (previous === undefined) return undefined;
  if (previous.local === node.local)
    return { ruleId: 'schema/other', message: `<${node.local}> may appear only once here` };
  if (here < order(previous.local))
    return { ruleId: 'schema/other', message: `<${node.local}> must come before <${previous.local}>` };
  return undefined;
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
