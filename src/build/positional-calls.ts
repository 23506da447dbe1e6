/**
 * A build step over ajv's standalone code: the validation context goes from one function to the next as
 * positional arguments instead of an object. ajv passes `{instancePath, parentData, parentDataProperty, rootData}`
 * to every nested validate function and destructures it there: an object per call, whether or not an error is ever
 * raised (a 100,000-component BOM makes over a million). The arguments are the same expressions in the same order,
 * so every error keeps its path; `rootData` goes, as no validator of ours reads it (the build checks that).
 *
 * This rewrites code the build generated from our schemas, never user input; any shape it does not expect fails the
 * build, so an ajv upgrade that changes the code cannot leave a validator half rewritten.
 */

const HEADER = '(data, {instancePath="", parentData, parentDataProperty, rootData=data}={})';
const POSITIONAL_HEADER = '(data, instancePath="", parentData, parentDataProperty)';
const CONTEXT = ', {instancePath';
const CONTEXT_KEYS = ['instancePath', 'parentData', 'parentDataProperty', 'rootData'] as const;

export class RewriteError extends Error {
  constructor(message: string) {
    super(`positional calls: ${message}`);
  }
}

/** The index just after the `}` that closes the object literal opening at `open`, strings skipped. */
function closingBrace(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === '"') {
      i++;
      while (i < code.length && code[i] !== '"') i += code[i] === '\\' ? 2 : 1;
    } else if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new RewriteError(`unterminated context object at ${open}`);
}

/** The members of an object literal's text (without its braces), split at top-level commas, strings skipped. */
function members(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    } else if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** The context object's values in {@link CONTEXT_KEYS} order (`{instancePath, …}` shorthand included). */
function contextValues(object: string): string[] {
  const parts = members(object.slice(1, -1));
  if (parts.length !== CONTEXT_KEYS.length) throw new RewriteError(`unexpected context ${object}`);
  return CONTEXT_KEYS.map((key, i) => {
    const part = parts[i]!;
    if (part === key) return key;
    if (!part.startsWith(`${key}:`)) throw new RewriteError(`unexpected context ${object}`);
    return part.slice(key.length + 1);
  });
}

/** `code` (ajv standalone output) with every validate function taking and passing its context positionally. */
export function positionalCalls(code: string): string {
  const functions = code.match(/function validate\d+\(/g)?.length ?? 0;
  if (functions === 0) throw new RewriteError('no validate function found');
  const headers = code.split(HEADER).length - 1;
  if (headers !== functions)
    throw new RewriteError(`${functions} validate functions, but ${headers} with the expected parameters`);
  code = code.replaceAll(HEADER, POSITIONAL_HEADER);

  let out = '';
  let from = 0;
  let calls = 0;
  for (let at = code.indexOf(CONTEXT); at >= 0; at = code.indexOf(CONTEXT, from)) {
    const open = at + 2;
    const close = closingBrace(code, open);
    const [instancePath, parentData, parentDataProperty, rootData] = contextValues(code.slice(open, close));
    if (rootData !== 'rootData') throw new RewriteError(`rootData passed as ${rootData}`);
    if (code[close] !== ')') throw new RewriteError(`context object not the last argument at ${at}`);
    out += `${code.slice(from, at)}, ${instancePath}, ${parentData}, ${parentDataProperty}`;
    from = close;
    calls++;
  }
  out += code.slice(from);

  if (/(?:validate\d+|wrapper\d+\.validate)\.call\(/.test(out))
    throw new RewriteError('a validate function is called with a context (this)');
  // Every call of a validate function was one of those rewritten (none is left with a context object, or with
  // `this`: ajv's passContext), and nothing reads the context's members that no longer exist.
  // A recursive reference calls through a wrapper object (`wrapper0.validate(…)`).
  const callSites = out.match(/(?<!function )(?:validate\d+|wrapper\d+\.validate)\(/g)?.length ?? 0;
  if (callSites !== calls) throw new RewriteError(`${callSites} calls of validate functions, ${calls} rewritten`);
  for (const gone of ['rootData', 'dynamicAnchors', 'valCxt', '{instancePath=']) {
    if (out.includes(gone)) throw new RewriteError(`"${gone}" is still in the code`);
  }
  return out;
}
