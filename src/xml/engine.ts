/**
 * libxml2, built to WebAssembly (libxml2-wasm): well-formedness and the official CycloneDX XSDs. The schemas are
 * read from @cyclonedx/cyclonedx-library's res/schema/ and compiled once per process and version. The only
 * input libxml2 can open is an in-memory provider holding those schema files, so neither a schema import nor a
 * document can make it read a file or a URL; documents are parsed without DTD loading, entity substitution,
 * XInclude or network access.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { MessageChannel } from 'node:worker_threads';
import { BomwrightError } from '../errors.js';
import { importLibxml2, schemaFile } from './engine-assets.js';
import { xsdFile, type XmlSpecVersion } from './versions.js';

type Libxml = typeof import('libxml2-wasm');
type XsdValidator = import('libxml2-wasm').XsdValidator;

/**
 * One libxml2 finding: message, 1-based line (0 when unknown), column (0 when unknown), and the element it is
 * about as its position among its parent's child elements at each level below the root (`[]`: the root).
 */
export interface XmlProblem {
  message: string;
  line: number;
  column: number;
  path?: number[];
}

/**
 * The lower layer of the same libxml2-wasm binding (lib/libxml2.mjs, no separate instance): its validate() asks
 * libxml2 for every finding's XPath, which counts the node's preceding siblings, so n findings among n siblings
 * cost n² (66 s for 40,000). bomwright validates through this layer instead, with a collector that keeps the
 * node and counts each parent's children once (positionsOf).
 */
interface Binding {
  addFunction(fn: (data: number, error: number) => void, signature: string): number;
  xmlSchemaNewValidCtxt(schema: number): number;
  xmlSchemaSetValidStructuredErrors(context: number, handler: number, data: number): void;
  xmlSchemaValidateDoc(context: number, document: number): number;
  xmlSchemaFreeValidCtxt(context: number): void;
  XmlErrorStruct: {
    message(e: number): string;
    line(e: number): number;
    col(e: number): number;
    node(e: number): number;
  };
  XmlTreeCommonStruct: {
    type(n: number): number;
    children(n: number): number;
    parent(n: number): number;
    next(n: number): number;
  };
}

function isBinding(value: unknown): value is Binding {
  const has = (o: unknown, names: string[]) =>
    (typeof o === 'object' || typeof o === 'function') &&
    o !== null &&
    names.every((n) => typeof Reflect.get(o, n) === 'function');
  return (
    has(value, [
      'addFunction',
      'xmlSchemaNewValidCtxt',
      'xmlSchemaSetValidStructuredErrors',
      'xmlSchemaValidateDoc',
      'xmlSchemaFreeValidCtxt',
    ]) &&
    has(Reflect.get(value as object, 'XmlErrorStruct'), ['message', 'line', 'col', 'node']) &&
    has(Reflect.get(value as object, 'XmlTreeCommonStruct'), ['type', 'children', 'parent', 'next'])
  );
}

/** A wrapper object's libxml2 pointer (libxml2-wasm keeps it in `_ptr`, undeclared in its types). */
function pointerOf(wrapper: object): number {
  const pointer: unknown = Reflect.get(wrapper, '_ptr');
  if (typeof pointer !== 'number' || pointer === 0) throw new Error('libxml2-wasm: an object without its pointer');
  return pointer;
}

/** The schemas' virtual home: imports (`spdx.SNAPSHOT.xsd`) resolve beside the including schema, in memory. */
const SCHEMA_BASE = 'bomwright-schema:///';
export const SCHEMA_FILES = [
  ...['1.0', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6', '1.7'].map((v) => `bom-${v}.SNAPSHOT.xsd`),
  'spdx.SNAPSHOT.xsd',
];

const XSD_NAMESPACE = 'http://www.w3.org/2001/XMLSchema';
const BOM_REF_UNIQUE = "/xs:schema/xs:element[@name='bom']/xs:unique[@name='bom-ref']";

/**
 * The hash value pattern of every version, `([a-fA-F0-9]{32})|([a-fA-F0-9]{40})|…{128})`: libxml2 runs an
 * alternation of counted repeats with backtracking, which cost a third of validating a BOM with a hash per
 * component. The same language (32, 40, 64, 96 or 128 hex digits) written as one chain of optional tails and no
 * counters is deterministic and linear; findings name the official pattern (patternInMessage).
 */
const HASH_VALUE = '([a-fA-F0-9]{32})|([a-fA-F0-9]{40})|([a-fA-F0-9]{64})|([a-fA-F0-9]{96})|([a-fA-F0-9]{128})';
const HEX = (n: number) => '[a-fA-F0-9]'.repeat(n);
const HASH_VALUE_FAST = `${HEX(32)}(${HEX(8)}(${HEX(24)}(${HEX(32)}(${HEX(32)})?)?)?)?`;
const HASH_PATTERN = "//xs:simpleType[@name='hashValue']/xs:restriction/xs:pattern/@value";

/** A libxml2 message, with the pattern as the schema writes it. */
function patternInMessage(message: string): string {
  return message.includes(HASH_VALUE_FAST) ? message.replaceAll(HASH_VALUE_FAST, HASH_VALUE) : message;
}

let loading: Promise<Libxml> | undefined;
let binding: { raw: Binding; collector: number } | undefined;
/** The findings of the validation under way (validation is synchronous: one at a time per thread). */
let collecting: { message: string; line: number; column: number; node: number }[] = [];
const validators = new Map<XmlSpecVersion, XsdValidator>();

/** libxml2, loaded on first use (a JSON-only run never pays for it), with the schema files as its only input. */
function loadLibxml(): Promise<Libxml> {
  loading ??= (async () => {
    let lib: Libxml;
    let raw: unknown;
    try {
      [lib, raw] = await importLibxml2();
      if (!isBinding(raw)) throw new Error('lib/libxml2.mjs lacks the functions bomwright validates with');
    } catch (error) {
      loading = undefined;
      throw new BomwrightError(
        'E_SCHEMA_MISSING',
        `The XML engine (libxml2-wasm) cannot be loaded: ${(error as Error).message.split('\n')[0]}`,
      );
    }
    const files: Record<string, Uint8Array> = {};
    for (const file of SCHEMA_FILES) files[SCHEMA_BASE + file] = schemaFile(file);
    lib.xmlRegisterInputProvider(new lib.XmlBufferInputProvider(files));
    const Error_ = raw.XmlErrorStruct;
    const collector = raw.addFunction((_data, error) => {
      collecting.push({
        message: Error_.message(error),
        line: Error_.line(error),
        column: Error_.col(error),
        node: Error_.node(error),
      });
    }, 'vii');
    binding = { raw, collector };
    return lib;
  })();
  return loading;
}

/**
 * Parser options for documents: no DTD loading, no entity substitution, no XInclude, no network, no XXE. And no
 * 10 MB limit on one text node or attribute (XML_PARSE_HUGE): a base64 licence text may be larger, the same
 * content is valid in JSON, and the document's size is bounded by --max-size before libxml2 sees it. The limits
 * HUGE also lifts guard entity expansion, which never happens here: a DOCTYPE is refused before the parse.
 */
function documentOptions(lib: Libxml): number {
  return lib.ParseOption.XML_PARSE_NONET | lib.ParseOption.XML_PARSE_NO_XXE | lib.ParseOption.XML_PARSE_HUGE;
}

async function validatorFor(version: XmlSpecVersion): Promise<XsdValidator> {
  const lib = await loadLibxml();
  let validator = validators.get(version);
  if (validator === undefined) {
    const url = SCHEMA_BASE + xsdFile(version);
    const schema = lib.XmlDocument.fromBuffer(schemaFile(xsdFile(version)), {
      url,
      option: lib.ParseOption.XML_PARSE_NONET,
      encoding: 'utf-8',
    });
    try {
      // The schema's `bom-ref` uniqueness constraint (a `.//*` selector over every element) is left out: the
      // bom-ref rule reports it with the place of both definitions, and its XSD finding was never shown.
      for (const constraint of schema.find(BOM_REF_UNIQUE, { xs: XSD_NAMESPACE })) constraint.remove();
      for (const pattern of schema.find(HASH_PATTERN, { xs: XSD_NAMESPACE }))
        if (pattern instanceof lib.XmlAttribute && pattern.value === HASH_VALUE) pattern.value = HASH_VALUE_FAST;
      validator = lib.XsdValidator.fromDoc(schema);
    } finally {
      schema.dispose();
    }
    validators.set(version, validator);
  }
  return validator;
}

function problems(error: unknown): XmlProblem[] | undefined {
  const details = (error as { details?: unknown } | undefined)?.details;
  if (!Array.isArray(details)) return undefined;
  return details.map((d: { message: string; line: number; col: number }) => ({
    message: patternInMessage(d.message.trim()),
    line: d.line,
    column: d.col,
  }));
}

const ELEMENT_NODE = 1;
const ATTRIBUTE_NODE = 2;

/**
 * Validates `document` against `validator`'s schema: its findings, each with the position path of its element.
 * A parent's child elements are counted once, when a finding first needs one of them: linear in the findings.
 */
function validateDocument(validator: XsdValidator, document: import('libxml2-wasm').XmlDocument): XmlProblem[] {
  const { raw, collector } = binding!;
  const tree = raw.XmlTreeCommonStruct;
  const context = raw.xmlSchemaNewValidCtxt(pointerOf(validator));
  if (context === 0) throw new Error('libxml2 could not allocate a validation context');
  collecting = [];
  let result: number;
  try {
    raw.xmlSchemaSetValidStructuredErrors(context, collector, 0);
    result = raw.xmlSchemaValidateDoc(context, pointerOf(document));
  } finally {
    raw.xmlSchemaFreeValidCtxt(context);
  }
  const found = collecting;
  collecting = [];
  if (result < 0) throw new Error('libxml2 could not validate the document (an internal error)');
  // As libxml2-wasm's validate(): a valid document has no findings (libxml2 may have warned).
  if (result === 0) return [];
  const positions = new Map<number, number>();
  const positionOf = (node: number): number => {
    let position = positions.get(node);
    if (position === undefined) {
      let i = 0;
      for (let child = tree.children(tree.parent(node)); child !== 0; child = tree.next(child))
        if (tree.type(child) === ELEMENT_NODE) positions.set(child, i++);
      position = positions.get(node) ?? 0;
    }
    return position;
  };
  const pathOf = (node: number): number[] | undefined => {
    if (node !== 0 && tree.type(node) === ATTRIBUTE_NODE) node = tree.parent(node);
    if (node === 0 || tree.type(node) !== ELEMENT_NODE) return undefined;
    const path: number[] = [];
    for (let at = node; tree.type(tree.parent(at)) === ELEMENT_NODE; at = tree.parent(at)) path.push(positionOf(at));
    return path.reverse();
  };
  return found.map((f) => {
    const path = pathOf(f.node);
    return {
      message: patternInMessage(f.message.trim()),
      line: f.line,
      column: f.column,
      ...(path === undefined ? {} : { path }),
    };
  });
}

/**
 * The text as UTF-8, encoded natively (libxml2-wasm's own string path copies character by character in
 * JavaScript); an ASCII text (as most BOMs are: its UTF-8 length is its length) is copied byte for byte.
 */
export function utf8(text: string): Uint8Array {
  return Buffer.byteLength(text, 'utf8') === text.length ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
}

/**
 * Frees a large buffer's memory now rather than at some later garbage collection (a thread that allocates
 * little may not collect for its whole run): it is transferred into a channel that is then closed, which drops
 * it. Only a buffer that is alone on its memory (never a slice of Node's shared pool) is released.
 */
async function release(bytes: Uint8Array): Promise<void> {
  const buffer = bytes.buffer;
  if (!(buffer instanceof ArrayBuffer) || bytes.byteOffset !== 0 || bytes.byteLength !== buffer.byteLength) return;
  if (buffer.byteLength < 1 << 20) return;
  const { port1, port2 } = new MessageChannel();
  port1.postMessage(null, [buffer]);
  port1.close();
  port2.close();
  await nextTurn();
}

export type XmlCheck = { wellFormed: false; problems: XmlProblem[] } | { wellFormed: true; problems: XmlProblem[] };

/** The root element as libxml2 read it: its local name and namespace (undefined when it has none). */
interface XmlRootName {
  local: string;
  namespace: string | undefined;
}

/**
 * Parses `text` with libxml2 and, when it is well-formed, validates it against the XSD of `version` (undefined:
 * well-formedness only). The text is passed as UTF-8 whatever its declaration says: bomwright decoded it.
 */
export async function checkXml(text: string, version: XmlSpecVersion | undefined): Promise<XmlCheck> {
  return (await checkXmlBytes(utf8(text), version)).check;
}

/**
 * checkXml for UTF-8 bytes, which it consumes (a large buffer is released once parsed). The XSD is `version`'s,
 * or the one `version` picks from the parsed root (so a thread that has only the bytes picks the version the
 * reader of the text would); the answer says which version it validated against.
 */
export async function checkXmlBytes(
  bytes: Uint8Array,
  version: XmlSpecVersion | undefined | ((root: XmlRootName) => XmlSpecVersion | undefined),
): Promise<{ check: XmlCheck; version: XmlSpecVersion | undefined }> {
  const lib = await loadLibxml();
  // A known version's schema is compiled before the parse: its memory then sits below the tree's in libxml2's heap.
  if (typeof version === 'string') await validatorFor(version);
  let document: import('libxml2-wasm').XmlDocument;
  try {
    document = lib.XmlDocument.fromBuffer(bytes, { option: documentOptions(lib), encoding: 'utf-8' });
  } catch (error) {
    const found = problems(error);
    if (found === undefined) throw error;
    return { check: { wellFormed: false, problems: found }, version: undefined };
  }
  try {
    // libxml2 parsed a copy in its own memory: the bytes need not stay beside the tree while it is validated.
    await release(bytes);
    const root = document.root;
    const chosen =
      typeof version === 'function'
        ? version({ local: root.name, namespace: root.namespaceUri === '' ? undefined : root.namespaceUri })
        : version;
    if (chosen === undefined) return { check: { wellFormed: true, problems: [] }, version: chosen };
    const validator = await validatorFor(chosen);
    return { check: { wellFormed: true, problems: validateDocument(validator, document) }, version: chosen };
  } finally {
    document.dispose();
  }
}
