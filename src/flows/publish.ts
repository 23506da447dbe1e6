/**
 * Publishing a BOM to the people who act on it, through the service: a reply in a group thread carrying the BOM
 * (and its validation summary), the BOM's drive item in a release bundle, a dashboard tab pinned to a channel, and
 * the release review meeting forwarded to reviewers. Each request is built by a pure function first, so a dry run
 * shows exactly what would be sent without sending it.
 */
import { BomwrightError } from '../errors.js';
import type { ServiceApi } from '../service/api.js';
import type { BodyOf } from '../service/api.js';
import { MAX_ATTACHMENT_BYTES } from '../service/invoke.js';
import { validate } from '../validate/index.js';
import { isRecord } from '../values.js';

export interface ThreadReplyOptions {
  group: string;
  thread: string;
  conversation?: string;
  /** Text before the validation summary. */
  comment?: string;
  /** The attachment's file name (default bom.json). */
  fileName?: string;
  /** Where the BOM can be read, for a BOM of 3 MB or more (sent as a reference attachment instead). */
  link?: string;
}

export interface ThreadReply {
  body: BodyOf<'replyToThread'>;
  /** How the BOM travels. */
  attachment: 'file' | 'reference';
  bytes: number;
  summary: string;
}

/** One line about the document: whether it is valid, its format, version, size and serial number. */
export async function validationSummary(text: string, name: string): Promise<string> {
  const result = await validate(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const document = isRecord(parsed) ? parsed : {};
  const components = Array.isArray(document.components) ? document.components.length : 0;
  const what = [
    typeof document.specVersion === 'string' ? `${String(document.bomFormat ?? 'BOM')} ${document.specVersion}` : 'BOM',
    typeof document.version === 'number' ? `version ${document.version}` : undefined,
    `${components} component${components === 1 ? '' : 's'}`,
    typeof document.serialNumber === 'string' ? document.serialNumber : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(', ');
  const verdict = result.valid
    ? `valid${result.warnings > 0 ? ` (${result.warnings} warning${result.warnings === 1 ? '' : 's'})` : ''}`
    : `NOT valid: ${result.errors} error${result.errors === 1 ? '' : 's'}, ${result.warnings} warning${result.warnings === 1 ? '' : 's'}`;
  return `${name}: ${verdict} — ${what} (checked by bomwright)`;
}

/**
 * The reply that carries the BOM: a file attachment, or, at 3 MB or more (the service's limit), a reference
 * attachment to `link`; without a link such a BOM is refused with the reason.
 */
export async function threadReply(text: string, options: ThreadReplyOptions): Promise<ThreadReply> {
  const fileName = options.fileName ?? 'bom.json';
  const bytes = Buffer.byteLength(text);
  const summary = await validationSummary(text, fileName);
  const content = options.comment === undefined ? summary : `${options.comment}\n\n${summary}`;
  let attachment: NonNullable<BodyOf<'replyToThread'>['post']['attachments']>[number];
  if (bytes < MAX_ATTACHMENT_BYTES) {
    attachment = {
      '@odata.type': '#vendor.graph.fileAttachment',
      name: fileName,
      contentType: 'application/vnd.cyclonedx+json',
      contentBytes: Buffer.from(text).toString('base64'),
    };
  } else if (options.link !== undefined) {
    attachment = {
      '@odata.type': '#vendor.graph.referenceAttachment',
      name: fileName,
      sourceUrl: options.link,
      providerType: 'other',
      permission: 'view',
      isFolder: false,
    };
  } else
    throw new BomwrightError(
      'E_USAGE',
      `${fileName} is ${bytes} bytes; an attachment must stay under 3 MB (${MAX_ATTACHMENT_BYTES} bytes): give --link URL to attach a link to where it is published instead`,
    );
  return {
    body: { post: { body: { contentType: 'text', content }, attachments: [attachment] } },
    attachment: bytes < MAX_ATTACHMENT_BYTES ? 'file' : 'reference',
    bytes,
    summary,
  };
}

/** Replies in the group thread with the BOM. */
export async function publishThread(text: string, api: ServiceApi, options: ThreadReplyOptions): Promise<ThreadReply> {
  const reply = await threadReply(text, options);
  await api.groupsAndTeams.replyToThread(
    options.conversation === undefined
      ? { group: options.group, thread: options.thread, body: reply.body }
      : { group: options.group, conversation: options.conversation, thread: options.thread, body: reply.body },
  );
  return reply;
}

/** Adds the published BOM's drive item to a release bundle. */
export async function publishBundle(api: ServiceApi, options: { bundle: string; item: string }): Promise<void> {
  await api.driveBundles.addBundleItem({ bundle: options.bundle, body: { id: options.item } });
}

export interface TabOptions {
  team: string;
  channel: string;
  app: string;
  /** The dashboard's address (a configurable tab). */
  url?: string;
  name?: string;
  /** The app's static tab: pinned without displayName or configuration, which come from the app. */
  static?: boolean;
}

/** The tab request: only the app for a static tab, as the spec requires; the dashboard's name and URL otherwise. */
export function tabRequest(baseUrl: string, options: TabOptions): BodyOf<'addChannelTab'> {
  const bind = `${baseUrl.replace(/\/+$/, '')}/v1.0/appCatalogs/teamsApps/${encodeURIComponent(options.app)}`;
  if (options.static === true) return { 'teamsApp@odata.bind': bind };
  if (options.url === undefined)
    throw new BomwrightError(
      'E_USAGE',
      'A configurable tab needs the dashboard URL (--url); a static tab needs --static',
    );
  return {
    'teamsApp@odata.bind': bind,
    displayName: options.name ?? 'SBOM',
    configuration: { entityId: 'bomwright', contentUrl: options.url, websiteUrl: options.url },
  };
}

/** Pins the dashboard tab to the channel; the created tab. */
export async function publishTab(api: ServiceApi, options: TabOptions) {
  return api.groupsAndTeams.addChannelTab({
    team: options.team,
    channel: options.channel,
    body: tabRequest(api.transport.baseUrl, options),
  });
}

export interface ForwardOptions {
  event: string;
  /** The organiser's user (id or user principal name); the signed-in user when absent. */
  user?: string;
  to: readonly string[];
  comment?: string;
}

/** The forward request: each reviewer as a recipient, with the comment. */
export function forwardRequest(options: ForwardOptions): BodyOf<'forwardEvent'> {
  if (options.to.length === 0) throw new BomwrightError('E_USAGE', 'Name at least one reviewer (--to EMAIL)');
  for (const address of options.to)
    if (!/^[^\s@]+@[^\s@]+$/.test(address))
      throw new BomwrightError('E_USAGE', `${JSON.stringify(address.slice(0, 100))} is not an email address`);
  return {
    ToRecipients: options.to.map((address) => ({ EmailAddress: { Address: address } })),
    ...(options.comment === undefined ? {} : { Comment: options.comment }),
  };
}

/** Forwards the release review meeting to the reviewers. */
export async function notifyForward(api: ServiceApi, options: ForwardOptions): Promise<void> {
  const body = forwardRequest(options);
  await api.mailAndCalendar.forwardEvent(
    options.user === undefined ? { event: options.event, body } : { user: options.user, event: options.event, body },
  );
}
