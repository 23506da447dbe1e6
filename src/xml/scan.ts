/**
 * A small XML reader for documents libxml2 also reads: it builds the element tree the mapping reader walks, with
 * the source offset of every element and attribute (libxml2 reports no columns for schema errors). It knows no
 * DTD at all: a DOCTYPE is refused before anything else is read, so no entity other than the five predefined
 * ones and character references can exist, and nothing is ever fetched. Iterative, depth-bounded, linear.
 */

const MAX_XML_DEPTH = 256;

export interface XmlAttribute {
  /** The qualified name as written (`bom-ref`, `xsi:schemaLocation`). */
  readonly name: string;
  readonly local: string;
  /** Namespace URI; attributes without a prefix have none. */
  readonly namespace: string | undefined;
  readonly value: string;
  /** Offset of the attribute's name in the text. */
  readonly offset: number;
}

export interface XmlNode {
  readonly name: string;
  readonly local: string;
  readonly namespace: string | undefined;
  readonly attributes: XmlAttribute[];
  readonly children: XmlNode[];
  /** The character data directly inside the element (text and CDATA), concatenated. */
  text: string;
  /** Offset of the `<` of the start tag. */
  readonly offset: number;
  /** Offset just past the element's end (its end tag, or `/>`), once the reader has passed it. */
  end?: number;
  readonly parent: XmlNode | undefined;
}

type ScanResult = { ok: true; root: XmlNode } | ScanFailure;

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

class ScanError extends Error {
  constructor(
    readonly kind: 'doctype' | 'too-deep' | 'syntax',
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

/**
 * What the reader hands on as it goes: a start tag (its namespace resolved), character data directly inside the
 * innermost open element, an end tag. The element tree is one consumer; the mapping reader's model is built
 * from the same events without the tree (model.ts), so both read the text exactly alike.
 */
export interface ScanSink {
  open(name: string, local: string, namespace: string | undefined, attributes: XmlAttribute[], offset: number): void;
  text(data: string): void;
  /** `end`: the offset just past the end tag (or `/>`). */
  close(end: number): void;
}

type ScanFailure = { ok: false; kind: 'doctype' | 'too-deep' | 'syntax'; message: string; offset: number };

/** Reads `text` (decoded, without a byte-order mark) into an element tree, or says why it cannot. */
export function scanXml(text: string): ScanResult {
  const tree = new TreeSink();
  const failure = scanInto(text, tree);
  return failure ?? { ok: true, root: tree.root! };
}

/** Reads `text` into `sink`; undefined when it is read through, else why not (the sink then has a part). */
export function scanInto(text: string, sink: ScanSink): ScanFailure | undefined {
  try {
    new Scanner(text, sink).document();
    return undefined;
  } catch (error) {
    if (error instanceof ScanError)
      return { ok: false, kind: error.kind, message: error.message, offset: error.offset };
    throw error;
  }
}

class TreeSink implements ScanSink {
  root: XmlNode | undefined;
  private readonly open_: XmlNode[] = [];

  open(name: string, local: string, namespace: string | undefined, attributes: XmlAttribute[], offset: number): void {
    const parent = this.open_[this.open_.length - 1];
    const node: XmlNode = { name, local, namespace, attributes, children: [], text: '', offset, parent };
    if (parent) parent.children.push(node);
    else this.root = node;
    this.open_.push(node);
  }

  text(data: string): void {
    this.open_[this.open_.length - 1]!.text += data;
  }

  close(end: number): void {
    this.open_.pop()!.end = end;
  }
}

/** From this many attributes on, repeated names are found with a set. */
const MANY_ATTRIBUTES = 16;

/** Slots of the reader's cache of names (a power of two). */
const NAME_SLOTS = 256;

class Scanner {
  private pos = 0;
  private readonly names: (string | undefined)[] = new Array<string | undefined>(NAME_SLOTS);
  constructor(
    private readonly text: string,
    private readonly sink: ScanSink,
  ) {}

  /** Up to the root's start tag: the prolog, where a DOCTYPE would stand. */
  prolog(): void {
    const t = this.text;
    if (t.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.misc();
    if (t.startsWith('<!DOCTYPE', this.pos))
      throw new ScanError(
        'doctype',
        'The document has a DOCTYPE; bomwright reads CycloneDX XML without DTDs or entity declarations',
        this.pos,
      );
    if (t[this.pos] !== '<') throw this.fail('Expected the root element');
  }

  document(): void {
    this.prolog();
    this.element();
    this.misc();
    if (this.pos < this.text.length) throw this.fail('Content after the root element');
  }

  private fail(message: string, offset = this.pos): ScanError {
    return new ScanError('syntax', message, offset);
  }

  /** White space, comments and processing instructions (the XML declaration first, if any). */
  private misc(): void {
    const t = this.text;
    for (;;) {
      while (this.pos < t.length && isSpace(t.charCodeAt(this.pos))) this.pos++;
      if (t.startsWith('<!--', this.pos)) this.skipPast('-->', this.pos + 4);
      else if (t.startsWith('<?', this.pos)) this.skipPast('?>', this.pos + 2);
      else return;
    }
  }

  private skipPast(end: string, from: number): void {
    const at = this.text.indexOf(end, from);
    if (at === -1) throw this.fail(`Missing "${end}"`);
    this.pos = at + end.length;
  }

  private name(): string {
    const t = this.text;
    const start = this.pos;
    let i = start;
    for (; i < t.length; i++) if (endsName(t.charCodeAt(i))) break;
    if (i === start) throw this.fail('Expected a name');
    this.pos = i;
    // The few names of a document recur: the one seen last of this length and first letter is taken again
    // instead of a new string, so names cost no memory and are property keys V8 has already seen.
    const slot = ((i - start) * 31 + t.charCodeAt(start)) & (NAME_SLOTS - 1);
    const seen = this.names[slot];
    if (seen !== undefined && seen.length === i - start && t.startsWith(seen, start)) return seen;
    const name = t.slice(start, i);
    this.names[slot] = name;
    return name;
  }

  private spaces(): boolean {
    const start = this.pos;
    while (this.pos < this.text.length && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
    return this.pos > start;
  }

  /** The root element and everything in it, with an explicit stack instead of recursion. */
  private element(): void {
    const t = this.text;
    const sink = this.sink;
    const scopes: Map<string, string | undefined>[] = [new Map([['xml', XML_NS]])];
    // The open elements' names and offsets (for end tags and the error of one left open).
    const names: string[] = [];
    const offsets: number[] = [];
    // A start tag's attributes as written, before their namespaces are known.
    const rawNames: string[] = [];
    const rawValues: string[] = [];
    const rawOffsets: number[] = [];
    for (;;) {
      // At '<' of a start tag.
      const offset = this.pos;
      this.pos++;
      const name = this.name();
      let count = 0;
      let declares = false;
      let seen: Set<string> | undefined;
      for (;;) {
        const spaced = this.spaces();
        const c = t.charCodeAt(this.pos);
        if (c === 0x3e || c === 0x2f) break; // '>' '/'
        if (Number.isNaN(c)) throw this.fail('Unterminated start tag', offset);
        if (!spaced) throw this.fail('Expected white space between attributes');
        const attributeOffset = this.pos;
        const attributeName = this.name();
        this.spaces();
        if (t.charCodeAt(this.pos) !== 0x3d) throw this.fail('Expected "=" after an attribute name');
        this.pos++;
        this.spaces();
        const quote = t[this.pos];
        if (quote !== '"' && quote !== "'") throw this.fail('Expected a quoted attribute value');
        const end = t.indexOf(quote, this.pos + 1);
        if (end === -1) throw this.fail('Unterminated attribute value');
        const value = this.unescape(t.slice(this.pos + 1, end), this.pos + 1, true);
        if (count < MANY_ATTRIBUTES) {
          for (let k = 0; k < count; k++)
            if (rawNames[k] === attributeName)
              throw this.fail(`Attribute ${attributeName} is repeated`, attributeOffset);
        } else {
          // A hostile start tag with thousands of attributes is checked in linear time, not pair by pair.
          if (count === MANY_ATTRIBUTES) seen = new Set(rawNames.slice(0, count));
          if (seen!.has(attributeName)) throw this.fail(`Attribute ${attributeName} is repeated`, attributeOffset);
          seen!.add(attributeName);
        }
        if (attributeName === 'xmlns' || attributeName.startsWith('xmlns:')) declares = true;
        rawNames[count] = attributeName;
        rawValues[count] = value;
        rawOffsets[count] = attributeOffset;
        count++;
        this.pos = end + 1;
      }
      // A new scope only where an element declares namespaces: most elements share their parent's.
      let scope = scopes[scopes.length - 1]!;
      if (declares) {
        scope = new Map(scope);
        for (let k = 0; k < count; k++) {
          const a = rawNames[k]!;
          if (a === 'xmlns') scope.set('', rawValues[k] === '' ? undefined : rawValues[k]);
          else if (a.startsWith('xmlns:')) scope.set(a.slice(6), rawValues[k]);
        }
      }
      const colon = name.indexOf(':');
      const prefix = colon === -1 ? '' : name.slice(0, colon);
      const local = colon === -1 ? name : name.slice(colon + 1);
      if (prefix !== '' && !scope.has(prefix)) throw this.fail(`Namespace prefix ${prefix} is not declared`, offset);
      const attributes: XmlAttribute[] = [];
      for (let k = 0; k < count; k++) {
        const a = rawNames[k]!;
        const at = a.indexOf(':');
        const p = at === -1 ? '' : a.slice(0, at);
        const l = at === -1 ? a : a.slice(at + 1);
        const value = rawValues[k]!;
        const attributeOffset = rawOffsets[k]!;
        if (a === 'xmlns' || p === 'xmlns')
          attributes.push({ name: a, local: l, namespace: XMLNS_NS, value, offset: attributeOffset });
        else if (p !== '' && !scope.has(p)) throw this.fail(`Namespace prefix ${p} is not declared`, attributeOffset);
        else
          attributes.push({
            name: a,
            local: l,
            namespace: p === '' ? undefined : scope.get(p),
            value,
            offset: attributeOffset,
          });
      }
      sink.open(name, local, scope.get(prefix), attributes, offset);
      if (names.length + 1 > MAX_XML_DEPTH)
        throw new ScanError('too-deep', `Elements are nested deeper than ${MAX_XML_DEPTH} levels`, offset);
      if (t.charCodeAt(this.pos) === 0x2f) {
        if (t.charCodeAt(this.pos + 1) !== 0x3e) throw this.fail('Expected "/>"');
        this.pos += 2;
        sink.close(this.pos);
        if (names.length === 0) return;
      } else {
        this.pos++;
        names.push(name);
        offsets.push(offset);
        scopes.push(scope);
      }
      // Content until the next start tag (or the end of the root).
      for (;;) {
        const current = names[names.length - 1]!;
        const lt = t.indexOf('<', this.pos);
        if (lt === -1) throw this.fail(`Element ${current} is not closed`, offsets[offsets.length - 1]);
        // White space between elements is not content (CycloneDX has no mixed content).
        if (lt > this.pos && !isBlank(t, this.pos, lt))
          sink.text(this.unescape(t.slice(this.pos, lt), this.pos, false));
        this.pos = lt;
        const next = t.charCodeAt(lt + 1);
        if (next === 0x2f) {
          // '</': the name read where it is the expected one, without a copy.
          this.pos += 2;
          if (t.startsWith(current, this.pos) && endsName(t.charCodeAt(this.pos + current.length)))
            this.pos += current.length;
          else {
            const closing = this.name();
            throw this.fail(`End tag ${closing} does not match start tag ${current}`, lt);
          }
          this.spaces();
          if (t.charCodeAt(this.pos) !== 0x3e) throw this.fail('Expected ">"');
          this.pos++;
          names.pop();
          offsets.pop();
          scopes.pop();
          sink.close(this.pos);
          if (names.length === 0) return;
        } else if (next === 0x21 && t.startsWith('<!--', lt)) this.skipPast('-->', lt + 4);
        else if (next === 0x21 && t.startsWith('<![CDATA[', lt)) {
          const end = t.indexOf(']]>', lt + 9);
          if (end === -1) throw this.fail('Unterminated CDATA section');
          sink.text(t.slice(lt + 9, end).replace(/\r\n?/g, '\n'));
          this.pos = end + 3;
        } else if (next === 0x3f) this.skipPast('?>', lt + 2);
        else if (next === 0x21) throw this.fail('Unexpected markup declaration');
        else break;
      }
    }
  }

  /** Character data with references replaced; attribute values also normalise white space (XML 1.0 §3.3.3). */
  private unescape(raw: string, offset: number, attribute: boolean): string {
    let s = raw.includes('\r') ? raw.replace(/\r\n?/g, '\n') : raw;
    if (attribute) {
      if (s.includes('<')) throw this.fail('"<" in an attribute value', offset);
      if (s.includes('\t') || s.includes('\n')) s = s.replace(/[\t\n]/g, ' ');
    }
    if (!s.includes('&')) return s;
    return s.replace(/&([^;&\s]*);?/g, (match, ref: string) => {
      if (!match.endsWith(';')) throw this.fail('"&" must start a reference ending with ";"', offset);
      if (ref.startsWith('#')) {
        const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        if (!/^#(x[0-9a-fA-F]+|[0-9]+)$/.test(ref) || !(code > 0 && code <= 0x10ffff))
          throw this.fail(`Invalid character reference &${ref};`, offset);
        return String.fromCodePoint(code);
      }
      const replacement = PREDEFINED[ref];
      if (replacement === undefined) throw this.fail(`Entity &${ref}; is not defined`, offset);
      return replacement;
    });
  }
}

/** White space, '/', '>', '=' (or the end of the text: NaN) end a name. */
function endsName(c: number): boolean {
  return (
    c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x2f || c === 0x3e || c === 0x3d || Number.isNaN(c)
  );
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/** 1-based line and column of each offset, from one pass over the text. */
export function lineColumn(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  };
}
