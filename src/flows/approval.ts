/**
 * `enrich approval`: the access package assignment request that approved the release, recorded in metadata (its
 * type, state, status and dates, the access package and the requestor); only a delivered request approves.
 */
import { BomwrightError } from '../errors.js';
import type { ServiceApi } from '../service/api.js';
import type { AccessPackageAssignmentRequestRequirements } from '../service/resources.js';
import { isRecord } from '../values.js';
import { editableCopy, metadataOf, replaceSource, setPropertiesUnder } from './records.js';

export interface EnrichApprovalOptions {
  request: string;
  /** List this access package's applicable policy requirements first. */
  policyCheck?: string;
  signal?: AbortSignal;
}

export interface EnrichApprovalResult {
  document: Record<string, unknown>;
  request: { id: string; state?: string | null; status?: string | null };
  /** With `policyCheck`: one item per assignment policy the caller may request under. */
  requirements?: AccessPackageAssignmentRequestRequirements[];
  calls: number;
}

/** An access package's or a requestor's (an access package subject's) name: the first of these that is set. */
function nameOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  for (const key of ['displayName', 'principalName', 'email', 'id'])
    if (typeof value[key] === 'string' && value[key] !== '') return value[key];
  return undefined;
}

/** The approving request, recorded in metadata; refused unless it was delivered. The input is never modified. */
export async function enrichApproval(
  document: unknown,
  api: ServiceApi,
  options: EnrichApprovalOptions,
): Promise<EnrichApprovalResult> {
  const copy = editableCopy(document);
  let calls = 0;
  let requirements: AccessPackageAssignmentRequestRequirements[] | undefined;
  if (options.policyCheck !== undefined) {
    calls++;
    requirements = await api.governance
      .getApplicablePolicyRequirements({ accessPackage: options.policyCheck, signal: options.signal })
      .all();
  }
  calls++;
  const request = await api.governance.getAssignmentRequest({
    request: options.request,
    expand: ['accessPackage', 'requestor'],
    signal: options.signal,
  });
  if (request.state !== 'delivered')
    throw new BomwrightError(
      'E_REFUSED',
      `Access package assignment request ${options.request} is ${JSON.stringify(request.state ?? null)}, not delivered: only a delivered request approves a release`,
    );
  const metadata = metadataOf(copy);
  const fields: [string, unknown][] = [
    ['id', request.id ?? options.request],
    ['requestType', request.requestType],
    ['state', request.state],
    ['status', request.status],
    ['createdDateTime', request.createdDateTime],
    ['completedDateTime', request.completedDateTime],
    ['accessPackage', nameOf(request.accessPackage)],
    ['requestor', nameOf(request.requestor)],
  ];
  // Every approval value comes from this request now: one a previous request had and this one lacks goes.
  const values = new Map<string, string>();
  for (const [name, value] of fields) if (typeof value === 'string') values.set(`bomwright:approval:${name}`, value);
  setPropertiesUnder(metadata, 'bomwright:approval:', values);
  replaceSource(
    metadata,
    'getAssignmentRequest',
    `identityGovernance/entitlementManagement/assignmentRequests/${options.request}`,
  );
  return {
    document: copy,
    request: { id: request.id ?? options.request, state: request.state, status: request.status },
    ...(requirements === undefined ? {} : { requirements }),
    calls,
  };
}
