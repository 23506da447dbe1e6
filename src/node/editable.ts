import { BomwrightError } from '../errors.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { validateAndParse } from '../validate/index.js';
import { describeProblems, layoutOf, numbersThatWouldChange, serializeJson } from './document-io.js';
import { readDocumentText } from './inputs.js';
import { writeFileAtomic } from './write.js';

/** A document read for rewriting, with what is needed to write it back the same way. */
export interface EditableDocument {
  file: string;
  value: Record<string, unknown>;
  layout: ReturnType<typeof layoutOf>;
  diagnostics: Diagnostic[];
  valid: boolean;
}

/**
 * Reads a BOM that a command will rewrite (bump, normalize, add, set): strictly parsed (duplicate keys and
 * unreadable text refused), and refused when a rewrite would change a number literal that a double cannot hold.
 */
export async function loadEditable(file: string): Promise<EditableDocument> {
  // Read as text without an intermediate buffer: bump and normalize then need the text and the tree, no more.
  const { decoded } = readDocumentText(file);
  if (decoded.text === undefined) throw describeProblems(file, decoded.diagnostics);
  const { result, value, text } = await validateAndParse(decoded.text, {
    signatures: 'verify',
    skipSignatureVerification: true,
  });
  const unreadable = result.diagnostics.filter(
    (d) => d.severity === 'error' && (d.ruleId.startsWith('read/') || d.ruleId.startsWith('json/')),
  );
  if (text === undefined || value === undefined || unreadable.length > 0)
    throw describeProblems(file, unreadable.length > 0 ? unreadable : result.diagnostics);
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new BomwrightError('E_INPUT', `${file} is not a JSON object`);
  const changed = numbersThatWouldChange(text);
  if (changed.length > 0) {
    throw new BomwrightError(
      'E_INPUT',
      `${file} holds ${changed[0]}, which a JSON parser cannot represent exactly; rewriting or signing would change it (write it as a string)`,
    );
  }
  return {
    file,
    value: value as Record<string, unknown>,
    layout: layoutOf(text),
    diagnostics: result.diagnostics,
    valid: result.valid,
  };
}

/** Writes the document back atomically with the source's layout (to `output` when given). */
export function writeEditable(document: EditableDocument, value: unknown, output?: string): string {
  const target = output ?? document.file;
  writeFileAtomic(target, serializeJson(value, document.layout));
  return target;
}
