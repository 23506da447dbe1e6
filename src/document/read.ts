/**
 * The one reading of a document: bytes or text → { syntax, model, locate, write }. The model is the data model
 * every rule, profile, edit, merge and diff works on (the JSON form of CycloneDX); JSON and XML differ only here
 * and in json/ and xml/ below. Pure: no files, no processes (the edges in node/ fetch the bytes).
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { byteOrderMarkWarning } from '../json/decode.js';
import { layoutOf } from '../json/layout.js';
import { locatePointers, offsetsToPositions } from '../json/locate.js';
import { parseJsonText } from '../json/parse.js';
import { isRecord, setMember, truncate } from '../values.js';
import { locator, ModelSink, type XmlPlace } from '../xml/model.js';
import { lineColumn, scanInto, scanXml, type XmlNode } from '../xml/scan.js';
import { xmlSpecVersion } from '../xml/versions.js';
import { decodeDocumentBytes } from './decode.js';
import { syntaxOf, type Syntax } from './syntax.js';
import { writeJsonModel, writeXmlModel, type WriteOptions } from './write.js';
import { patchJson } from './json-patch.js';
import { patchXml } from './xml-patch.js';
import { xmlRootProblem } from './xml-root.js';

/** Where a pointer into the model stands in the source: line and column, and for XML the element or attribute path. */
export interface DocumentPlace {
  line: number;
  column: number;
  /** XML only: `/bom/components/component[2]/@bom-ref`. */
  path?: string;
}

/** A document read into the data model, with the way back to its text. */
export interface BomDocument {
  readonly syntax: Syntax;
  /** The data model: the parsed JSON value, or the model an XML `<bom>` maps to (bomFormat and specVersion included). */
  readonly model: unknown;
  /** The decoded text, without a byte-order mark. */
  readonly text: string;
  /** Whether the source began with a byte-order mark (kept when the document is written back in its syntax). */
  readonly byteOrderMark: boolean;
  /** XML only: whether an XML signature stands in the document (it is not part of the model). */
  readonly xmlSigned: boolean;
  /** Warnings met while reading (a UTF-8 byte-order mark before JSON). */
  readonly diagnostics: readonly Diagnostic[];
  /** Where a JSON pointer into the model stands in the text; undefined when it leads nowhere. */
  locate(pointer: string): DocumentPlace | undefined;
  /**
   * `model` (this document's, changed or not) as text: in `to` (default: this document's syntax). Written back in
   * its own syntax, the text is patched in place (json-patch.ts, xml-patch.ts): only what changed is written,
   * every other byte kept; where a patch cannot be applied, or with `fresh`, the document is written afresh.
   */
  write(model: unknown, options?: WriteOptions): string;
}

/**
 * Where the two syntaxes genuinely differ, said once: JSON names its schema (`$schema`), which XML says with its
 * namespace; `bomFormat` and `specVersion`, implied by the XML namespace, are in both models. This is the model
 * without what only one syntax can carry, for comparing a document with its twin in the other syntax.
 */
export const JSON_ONLY_MEMBERS: readonly string[] = ['$schema'];

export function syntaxNeutralModel(model: unknown): unknown {
  if (!isRecord(model) || !JSON_ONLY_MEMBERS.some((name) => Object.hasOwn(model, name))) return model;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(model)) if (!JSON_ONLY_MEMBERS.includes(key)) setMember(copy, key, model[key]);
  return copy;
}

export type DocumentRead = { ok: true; document: BomDocument } | { ok: false; diagnostics: Diagnostic[] };

/** Reads a document (bytes: UTF-8; text: already decoded) in whichever syntax it is written. */
export function readDocument(input: string | Uint8Array): DocumentRead {
  let text: string;
  let byteOrderMark: boolean;
  const warnings: Diagnostic[] = [];
  if (typeof input === 'string') {
    byteOrderMark = input.charCodeAt(0) === 0xfeff;
    text = byteOrderMark ? input.slice(1) : input;
    if (/^[\t\n\r ]*$/.test(text))
      return {
        ok: false,
        diagnostics: [{ ruleId: 'read/empty', severity: 'error', message: 'The document is empty', pointer: '' }],
      };
  } else {
    const decoded = decodeDocumentBytes(input);
    if (decoded.text === undefined) return { ok: false, diagnostics: decoded.diagnostics };
    text = decoded.text;
    byteOrderMark = decoded.mark === true || decoded.diagnostics.some((d) => d.ruleId === 'read/byte-order-mark');
    warnings.push(...decoded.diagnostics);
  }
  if (syntaxOf(text) === 'xml') return readXml(text, byteOrderMark);
  if (byteOrderMark && typeof input === 'string') warnings.push(byteOrderMarkWarning());
  return readJson(text, byteOrderMark, warnings);
}

/** Bytes → text of either syntax (document/decode.ts): JSON in UTF-8, XML in UTF-8 or UTF-16. */
export { decodeDocumentBytes } from './decode.js';

function readJson(text: string, byteOrderMark: boolean, warnings: Diagnostic[]): DocumentRead {
  const parsed = parseJsonText(text);
  const errors = parsed.diagnostics.filter((d) => d.severity === 'error');
  if (!('value' in parsed) || errors.length > 0)
    return { ok: false, diagnostics: errors.length > 0 ? errors : parsed.diagnostics };
  return { ok: true, document: jsonDocument(text, parsed.value, byteOrderMark, [...warnings, ...parsed.diagnostics]) };
}

/**
 * The document of JSON text already parsed strictly (duplicate member names refused) by a caller that had to
 * parse it anyway (validate's hot path), so it is not parsed twice.
 */
export function jsonDocument(
  text: string,
  model: unknown,
  byteOrderMark = false,
  diagnostics: readonly Diagnostic[] = [],
): BomDocument {
  let layout: ReturnType<typeof layoutOf> | undefined;
  return {
    syntax: 'json',
    model,
    text,
    byteOrderMark,
    xmlSigned: false,
    diagnostics,
    locate(pointer) {
      // The parser found no repeated member name (it is an error), so a root member may be found from the end.
      const offset = locatePointers(text, [pointer], { uniqueMemberNames: true }).get(pointer);
      return offset === undefined ? undefined : offsetsToPositions(text, [offset]).get(offset);
    },
    // A byte-order mark is not written back: JSON text must not begin with one (RFC 8259 §8.1).
    write(changed, options = {}) {
      if ((options.to ?? 'json') === 'xml') return writeXmlModel(changed, options);
      const patched = options.fresh === true ? undefined : patchJson(text, model, changed);
      return patched ?? writeJsonModel(changed, (layout ??= layoutOf(text)));
    },
  };
}

/**
 * A document read for rewriting is UTF-8 (validate reads UTF-16 XML too: document/decode.ts); a declaration that
 * names another encoding would be misread, or contradicted by the UTF-8 written back.
 */
const ACCEPTED_ENCODINGS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

function readXml(text: string, byteOrderMark: boolean): DocumentRead {
  const position = (offset: number) => lineColumn(text)(offset);
  const declared = /^<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']/.exec(text)?.[1];
  if (declared !== undefined && !ACCEPTED_ENCODINGS.has(declared.toLowerCase()))
    return {
      ok: false,
      diagnostics: [
        {
          ruleId: 'read/unsupported-encoding',
          severity: 'error',
          message: `The XML declaration names encoding ${truncate(JSON.stringify(declared), 40)}; bomwright rewrites XML in UTF-8 (convert it first, e.g. with iconv)`,
          pointer: '',
          line: 1,
          column: 1,
        },
      ],
    };
  // The model is read straight from the text; the element tree only when a place is asked for.
  const sink = new ModelSink();
  const failure = scanInto(text, sink);
  if (failure !== undefined)
    return {
      ok: false,
      diagnostics: [
        {
          ruleId:
            failure.kind === 'syntax' ? 'xml/syntax' : failure.kind === 'doctype' ? 'xml/doctype' : 'xml/too-deep',
          severity: 'error',
          message: failure.kind === 'syntax' ? `Not well-formed XML: ${failure.message}` : failure.message,
          pointer: '',
          ...position(failure.offset),
        },
      ],
    };
  const root = sink.root!;
  const problem = xmlRootProblem(root);
  if (problem !== undefined) return { ok: false, diagnostics: [{ ...problem, ...position(root.offset) }] };
  return {
    ok: true,
    document: xmlDocument(text, sink.document(xmlSpecVersion(root.namespace)!), byteOrderMark, sink.signed),
  };
}

/**
 * The document of CycloneDX XML text whose model a caller has already read (validate reads it on its way), so it
 * is not read twice. `signed` unknown: found in the element tree when asked (writing needs that tree anyway).
 */
export function xmlDocument(
  text: string,
  model: Record<string, unknown>,
  byteOrderMark = false,
  signed?: boolean,
): BomDocument {
  let tree: XmlNode | undefined;
  let place: ((pointer: string) => XmlPlace | undefined) | undefined;
  let at: ((offset: number) => { line: number; column: number }) | undefined;
  const treeOf = (): XmlNode => {
    if (tree !== undefined) return tree;
    const scanned = scanXml(text);
    if (!scanned.ok) throw new Error(`The XML reader disagrees with itself: ${scanned.message}`);
    return (tree = scanned.root);
  };
  const locateXml = (pointer: string): XmlPlace | undefined => (place ??= locator(treeOf()))(pointer);
  return {
    syntax: 'xml',
    model,
    text,
    byteOrderMark,
    get xmlSigned() {
      return (signed ??= holdsXmlSignature(treeOf()));
    },
    diagnostics: [],
    locate(pointer) {
      const found = locateXml(pointer);
      return found === undefined ? undefined : { ...(at ??= lineColumn(text))(found.offset), path: found.path };
    },
    write(changed, options = {}) {
      if ((options.to ?? 'xml') === 'json') return writeJsonModel(changed);
      if (options.fresh === true) return writeXmlModel(changed, options);
      // Written afresh at most once (members added are taken from it; it is also the fallback), so that what
      // the XML form cannot carry is told to onDrop once.
      let fresh: string | undefined;
      const freshText = () => (fresh ??= writeXmlModel(changed, { ...options, indent: indentOf(text) }));
      const patched = patchXml(text, model, changed, {
        locate: locateXml,
        tree: treeOf,
        reread: rereadXml,
        fresh: () => {
          const written = freshText();
          const scanned = scanXml(written);
          if (!scanned.ok) throw new Error(`The XML writer wrote what its reader refuses: ${scanned.message}`);
          return { text: written, tree: scanned.root, locate: locator(scanned.root) };
        },
      });
      return patched !== undefined ? (byteOrderMark ? '\uFEFF' : '') + patched : freshText();
    },
  };
}

/** The model of XML text, or undefined when it does not read as a CycloneDX document. */
function rereadXml(text: string): unknown {
  const again = new ModelSink();
  if (scanInto(text, again) !== undefined || again.root === undefined) return undefined;
  const version = xmlSpecVersion(again.root.namespace);
  return version === undefined ? undefined : again.document(version);
}

/** The indentation unit of XML text (its first indented line's), so what is written afresh matches it. */
function indentOf(text: string): string {
  return /\n([ \t]+)</.exec(text)?.[1] ?? '';
}

const XML_DSIG = 'http://www.w3.org/2000/09/xmldsig#';

/** Whether an XML signature stands anywhere in the tree (as the model reader tells it: ModelSink.signed). */
function holdsXmlSignature(root: XmlNode): boolean {
  const stack = [root];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.local === 'Signature' && node.namespace === XML_DSIG) return true;
    stack.push(...node.children);
  }
  return false;
}
