/**
 * `enrich label`: the security label's subcategory template (display name, id, who created it and when) in the
 * document's metadata properties.
 */
import type { ServiceApi } from '../service/api.js';
import { editableCopy, metadataOf, replaceSource, setPropertiesUnder } from './records.js';

export interface EnrichLabelOptions {
  category: string;
  subcategory: string;
  signal?: AbortSignal;
}

export interface EnrichLabelResult {
  document: Record<string, unknown>;
  label: { id: string; displayName?: string | null };
  calls: number;
}

/** The label's subcategory template, recorded in metadata; the input is never modified. */
export async function enrichLabel(
  document: unknown,
  api: ServiceApi,
  options: EnrichLabelOptions,
): Promise<EnrichLabelResult> {
  const copy = editableCopy(document);
  const template = await api.labelsAndEdiscovery.getSubcategoryTemplate({
    category: options.category,
    subcategory: options.subcategory,
    signal: options.signal,
  });
  const metadata = metadataOf(copy);
  const id = template.id ?? options.subcategory;
  const fields: [string, unknown][] = [
    ['displayName', template.displayName],
    ['id', id],
    ['createdBy', template.createdBy?.user?.displayName ?? template.createdBy?.user?.id],
    ['createdByUserId', template.createdBy?.user?.id],
    ['createdDateTime', template.createdDateTime],
  ];
  // Every label value comes from this template now: one the previous label had and this one lacks goes.
  const values = new Map<string, string>();
  for (const [name, value] of fields) if (typeof value === 'string') values.set(`bomwright:label:${name}`, value);
  setPropertiesUnder(metadata, 'bomwright:label:', values);
  replaceSource(
    metadata,
    'getSubcategoryTemplate',
    `security/labels/categories/${options.category}/subcategories/${options.subcategory}`,
  );
  return { document: copy, label: { id, displayName: template.displayName }, calls: 1 };
}
