/**
 * A small XML reader for documents libxml2 also reads: it builds the element tree the mapping reader walks, with
 * the source offset of every element and attribute (libxml2 reports no columns for schema errors). It knows no
 * DTD at all: a DOCTYPE is refused before anything else is read, so no entity other than the five predefined
 * ones and character references can exist, and nothing is ever fetched. Iterative, depth-bounded, linear.
 */

export const MAX_XML_DEPTH = 256;

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
  readonly parent: XmlNode | undefined;
}

export type ScanResult =
  { ok: true; root: XmlNode } | { ok: false; kind: 'doctype' | 'too-deep' | 'syntax'; message: string; offset: number };

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

/** Reads `text` (decoded, without a byte-order mark) into an element tree, or says why it cannot. */
export function scanXml(text: string): ScanResult {
  try {
    return { ok: true, root: new Scanner(text).document() };
  } catch (error) {
    if (error instanceof ScanError)
      return { ok: false, kind: error.kind, message: error.message, offset: error.offset };
    throw error;
  }
}

/** Where a DOCTYPE starts in the prolog, if the document has one (checked before libxml2 sees the text). */
export function findDoctype(text: string): number | undefined {
  const result = scanXml(text);
  return !result.ok && result.kind === 'doctype' ? result.offset : undefined;
}

class Scanner {
  private pos = 0;
  constructor(private readonly text: string) {}

  document(): XmlNode {
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
    const root = this.element();
    this.misc();
    if (this.pos < t.length) throw this.fail('Content after the root element');
    return root;
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
    for (; i < t.length; i++) {
      const c = t.charCodeAt(i);
      // White space, '/', '>', '=' end a name.
      if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d || c === 0x2f || c === 0x3e || c === 0x3d) break;
    }
    if (i === start) throw this.fail('Expected a name');
    this.pos = i;
    return t.slice(start, i);
  }

  private spaces(): boolean {
    const start = this.pos;
    while (this.pos < this.text.length && isSpace(this.text.charCodeAt(this.pos))) this.pos++;
    return this.pos > start;
  }

  /** The root element and everything in it, with an explicit stack instead of recursion. */
  private element(): XmlNode {
    const t = this.text;
    const scopes: Map<string, string | undefined>[] = [new Map([['xml', XML_NS]])];
    const open: XmlNode[] = [];
    let root: XmlNode | undefined;
    for (;;) {
      // At '<' of a start tag.
      const offset = this.pos;
      this.pos++;
      const name = this.name();
      const raw: { name: string; value: string; offset: number }[] = [];
      for (;;) {
        const spaced = this.spaces();
        const c = t[this.pos];
        if (c === '>' || c === '/') break;
        if (c === undefined) throw this.fail('Unterminated start tag', offset);
        if (!spaced) throw this.fail('Expected white space between attributes');
        const attributeOffset = this.pos;
        const attributeName = this.name();
        this.spaces();
        if (t[this.pos] !== '=') throw this.fail('Expected "=" after an attribute name');
        this.pos++;
        this.spaces();
        const quote = t[this.pos];
        if (quote !== '"' && quote !== "'") throw this.fail('Expected a quoted attribute value');
        const end = t.indexOf(quote, this.pos + 1);
        if (end === -1) throw this.fail('Unterminated attribute value');
        const value = this.unescape(t.slice(this.pos + 1, end), this.pos + 1, true);
        if (raw.some((a) => a.name === attributeName))
          throw this.fail(`Attribute ${attributeName} is repeated`, attributeOffset);
        raw.push({ name: attributeName, value, offset: attributeOffset });
        this.pos = end + 1;
      }
      // A new scope only where an element declares namespaces: most elements share their parent's.
      let scope = scopes[scopes.length - 1]!;
      if (raw.some((a) => a.name === 'xmlns' || a.name.startsWith('xmlns:'))) {
        scope = new Map(scope);
        for (const a of raw) {
          if (a.name === 'xmlns') scope.set('', a.value === '' ? undefined : a.value);
          else if (a.name.startsWith('xmlns:')) scope.set(a.name.slice(6), a.value);
        }
      }
      const [prefix, local] = split(name);
      if (prefix !== '' && !scope.has(prefix)) throw this.fail(`Namespace prefix ${prefix} is not declared`, offset);
      const attributes: XmlAttribute[] = raw.map((a) => {
        const [p, l] = split(a.name);
        if (a.name === 'xmlns' || p === 'xmlns')
          return { name: a.name, local: l, namespace: XMLNS_NS, value: a.value, offset: a.offset };
        if (p !== '' && !scope.has(p)) throw this.fail(`Namespace prefix ${p} is not declared`, a.offset);
        return {
          name: a.name,
          local: l,
          namespace: p === '' ? undefined : scope.get(p),
          value: a.value,
          offset: a.offset,
        };
      });
      const parent = open[open.length - 1];
      const node: XmlNode = {
        name,
        local,
        namespace: scope.get(prefix),
        attributes,
        children: [],
        text: '',
        offset,
        parent,
      };
      if (parent) parent.children.push(node);
      else root = node;
      if (open.length + 1 > MAX_XML_DEPTH)
        throw new ScanError('too-deep', `Elements are nested deeper than ${MAX_XML_DEPTH} levels`, offset);
      if (t[this.pos] === '/') {
        if (t[this.pos + 1] !== '>') throw this.fail('Expected "/>"');
        this.pos += 2;
        if (open.length === 0) return node;
      } else {
        this.pos++;
        open.push(node);
        scopes.push(scope);
      }
      // Content until the next start tag (or the end of the root).
      for (;;) {
        const current = open[open.length - 1]!;
        const lt = t.indexOf('<', this.pos);
        if (lt === -1) throw this.fail(`Element ${current.name} is not closed`, current.offset);
        // White space between elements is not content (CycloneDX has no mixed content).
        if (lt > this.pos && !isBlank(t, this.pos, lt))
          current.text += this.unescape(t.slice(this.pos, lt), this.pos, false);
        this.pos = lt;
        if (t.startsWith('</', lt)) {
          this.pos += 2;
          const closing = this.name();
          if (closing !== current.name)
            throw this.fail(`End tag ${closing} does not match start tag ${current.name}`, lt);
          this.spaces();
          if (t[this.pos] !== '>') throw this.fail('Expected ">"');
          this.pos++;
          open.pop();
          scopes.pop();
          if (open.length === 0) return root!;
        } else if (t.startsWith('<!--', lt)) this.skipPast('-->', lt + 4);
        else if (t.startsWith('<![CDATA[', lt)) {
          const end = t.indexOf(']]>', lt + 9);
          if (end === -1) throw this.fail('Unterminated CDATA section');
          current.text += t.slice(lt + 9, end).replace(/\r\n?/g, '\n');
          this.pos = end + 3;
        } else if (t.startsWith('<?', lt)) this.skipPast('?>', lt + 2);
        else if (t.startsWith('<!', lt)) throw this.fail('Unexpected markup declaration');
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

function split(name: string): [prefix: string, local: string] {
  const colon = name.indexOf(':');
  return colon === -1 ? ['', name] : [name.slice(0, colon), name.slice(colon + 1)];
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
