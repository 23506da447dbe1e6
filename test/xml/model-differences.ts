/** Two data models compared member by member (the tests of one model under two syntaxes). */
import { isDeepStrictEqual } from 'node:util';

export type Difference = { pointer: string; kind: 'shape' | 'value' | 'only-xml' | 'only-json' };

/** Member by member: the pointers where the two models differ, and how. */
export function differences(xml: unknown, json: unknown, pointer = ''): Difference[] {
  if (isDeepStrictEqual(xml, json)) return [];
  if (xml === undefined) return [{ pointer, kind: 'only-json' }];
  if (json === undefined) return [{ pointer, kind: 'only-xml' }];
  const object = (v: unknown) => typeof v === 'object' && v !== null;
  if (object(xml) !== object(json) || Array.isArray(xml) !== Array.isArray(json)) return [{ pointer, kind: 'shape' }];
  if (!object(xml)) return [{ pointer, kind: typeof xml === typeof json ? 'value' : 'shape' }];
  const a = xml as Record<string, unknown>;
  const b = json as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((key) => differences(a[key], b[key], `${pointer}/${key}`));
}
