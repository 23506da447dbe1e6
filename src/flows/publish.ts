/**
 * Publishing a BOM to the people who act on it, through the service: a reply in a group thread carrying the BOM
 * (and its validation summary), the BOM's drive item in a release bundle, a dashboard tab pinned to a channel, and
 * the release review meeting forwarded to reviewers. Each request is built by a pure function first, so a dry run
 * shows exactly what would be sent without sending it.
 *
 * A CI pipeline reruns, so each publish first reads what is there and does nothing when the same BOM version is
 * already published (`force` publishes again): the thread's posts and their attachments, the channel's tabs, the
 * bundle's children (the real service's list route; the spec has none, the emulator serves it as an extension).
 * A bundle's 409 nameAlreadyExists (another run added the item between the read and the add) is still "already".
 */
import { createHash } from 'node:crypto';
import { BomwrightError } from '../errors.js';
import type { ServiceApi } from '../service/api.js';
import type { BodyOf } from '../service/api.js';
import { isServiceError } from '../service/errors.js';
import { MAX_ATTACHMENT_BYTES } from '../service/invoke.js';
import type { Post, TeamsTab } from '../service/resources.js';
import { validate } from '../validate/index.js';
import { isRecord } from '../values.js';
import { readDocument } from '../document/read.js';
import { syntaxOf } from '../document/syntax.js';

/**
 * Which BOM version a text is: its serialNumber and version when it has both (the spec: together they identify a
 * document), else the SHA-256 of its bytes. `sha256` is kept either way, to tell a changed but unbumped document.
 */
interface BomIdentity {
  key: string;
  /** For people: `urn:uuid:… version 7`, or `sha-256 0123456789ab…`. */
  label: string;
  sha256: string;
}

/** The model of a BOM's text, JSON or CycloneDX XML; undefined when it reads as no document. */
function modelOf(text: string): unknown {
  const read = readDocument(text);
  return read.ok ? read.document.model : undefined;
}

export function bomIdentity(text: string): BomIdentity {
  const sha256 = createHash('sha256').update(text, 'utf8').digest('hex');
  const parsed = modelOf(text);
  if (
    isRecord(parsed) &&
    typeof parsed.serialNumber === 'string' &&
    parsed.serialNumber !== '' &&
    Number.isSafeInteger(parsed.version)
  ) {
    const label = `${parsed.serialNumber} version ${String(parsed.version)}`;
    return { key: `serial ${label}`, label, sha256 };
  }
  return { key: `sha-256 ${sha256}`, label: `sha-256 ${sha256.slice(0, 12)}…`, sha256 };
}

export interface ThreadReplyOptions {
  group: string;
  thread: string;
  conversation?: string;
  /** Text before the validation summary. */
  comment?: string;
  /** The attachment's file name (default bom.json, or bom.xml for CycloneDX XML). */
  fileName?: string;
  /** Where the BOM can be read, for a BOM of 3 MB or more (sent as a reference attachment instead). */
  link?: string;
  /** Reply even when the thread already carries this BOM version. */
  force?: boolean;
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
  const parsed = modelOf(text);
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
  const fileName = options.fileName ?? (syntaxOf(text) === 'xml' ? 'bom.xml' : 'bom.json');
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

/** A post of the thread that already carries the BOM version. */
export interface PublishedPost {
  postId: string;
  /** False when the attached BOM has this version's serial number and version but other bytes (not bumped). */
  sameContent: boolean;
}

/** Attachments decoded to look for the BOM are bounded: a file attachment is under 3 MB (4 MiB of base64). */
const MAX_CONTENT_BYTES_CHARS = 4 * 1024 * 1024;

/**
 * The post of the thread that already carries this BOM version, if any: a file attachment whose content has the
 * same identity, or a reference attachment to the same link in a post whose body holds the same summary line.
 */
export async function findPublishedReply(
  text: string,
  api: ServiceApi,
  options: ThreadReplyOptions,
  signal?: AbortSignal,
): Promise<PublishedPost | undefined> {
  const identity = bomIdentity(text);
  const summary = await validationSummary(
    text,
    options.fileName ?? (syntaxOf(text) === 'xml' ? 'bom.xml' : 'bom.json'),
  );
  const where =
    options.conversation === undefined
      ? { group: options.group, thread: options.thread }
      : { group: options.group, conversation: options.conversation, thread: options.thread };
  let match: PublishedPost | undefined;
  for await (const post of api.groupsAndTeams.listThreadPosts({ ...where, signal })) {
    const found = carries(post, identity, summary, options.link);
    // An exact copy wins over a same-version document with other bytes.
    if (found !== undefined && (match === undefined || (!match.sameContent && found.sameContent))) match = found;
  }
  return match;
}

function carries(
  post: Post,
  identity: BomIdentity,
  summary: string,
  link: string | undefined,
): PublishedPost | undefined {
  const postId = post.id ?? '';
  let match: PublishedPost | undefined;
  for (const attachment of post.attachments ?? []) {
    // The service's answers are read in the spec's names (the client's doing), with or without the '#'.
    const type = attachment['@odata.type'].replace(/^#/, '');
    if (
      type === 'vendor.graph.fileAttachment' &&
      typeof attachment.contentBytes === 'string' &&
      attachment.contentBytes.length <= MAX_CONTENT_BYTES_CHARS
    ) {
      const attached = bomIdentity(Buffer.from(attachment.contentBytes, 'base64').toString('utf8'));
      if (attached.key !== identity.key) continue;
      if (attached.sha256 === identity.sha256) return { postId, sameContent: true };
      match = { postId, sameContent: false };
    } else if (
      type === 'vendor.graph.referenceAttachment' &&
      link !== undefined &&
      attachment.sourceUrl === link &&
      (post.body?.content ?? '').split('\n').includes(summary)
    )
      return { postId, sameContent: true };
  }
  return match;
}

export interface ThreadPublication extends ThreadReply {
  /** False when the thread already carried this BOM version (and `force` was not given): nothing was sent. */
  published: boolean;
  /** The post that already carried it. */
  existing?: PublishedPost;
}

/** Replies in the group thread with the BOM, unless the thread already carries this BOM version. */
export async function publishThread(
  text: string,
  api: ServiceApi,
  options: ThreadReplyOptions,
): Promise<ThreadPublication> {
  const reply = await threadReply(text, options);
  if (options.force !== true) {
    const existing = await findPublishedReply(text, api, options);
    if (existing !== undefined) return { ...reply, published: false, existing };
  }
  await api.groupsAndTeams.replyToThread(
    options.conversation === undefined
      ? { group: options.group, thread: options.thread, body: reply.body }
      : { group: options.group, conversation: options.conversation, thread: options.thread, body: reply.body },
  );
  return { ...reply, published: true };
}

/** Whether the bundle already holds the drive item (read from its children, page by page). */
export async function bundleHolds(
  api: ServiceApi,
  options: { bundle: string; item: string },
  signal?: AbortSignal,
): Promise<boolean> {
  for await (const child of api.driveBundles.listBundleChildren({ bundle: options.bundle, signal }))
    if (child.id === options.item) return true;
  return false;
}

/**
 * Adds the published BOM's drive item to a release bundle; `added` is false when the bundle already holds it: read
 * first, so a rerun only reads, and a 409 nameAlreadyExists from a concurrent add means the same.
 */
export async function publishBundle(
  api: ServiceApi,
  options: { bundle: string; item: string },
): Promise<{ added: boolean }> {
  if (await bundleHolds(api, options)) return { added: false };
  try {
    await api.driveBundles.addBundleItem({ bundle: options.bundle, body: { id: options.item } });
    return { added: true };
  } catch (error) {
    if (isServiceError(error) && error.status === 409 && error.serviceCode === 'nameAlreadyExists')
      return { added: false };
    throw error;
  }
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
  /** Pin even when the channel already has this tab. */
  force?: boolean;
}

/**
 * The tab request: only the app for a static tab, as the spec requires (a name or URL given with it is refused,
 * never dropped); the dashboard's name and URL otherwise.
 */
export function tabRequest(baseUrl: string, options: TabOptions): BodyOf<'addChannelTab'> {
  const bind = `${baseUrl.replace(/\/+$/, '')}/v1.0/appCatalogs/teamsApps/${encodeURIComponent(options.app)}`;
  if (options.static === true) {
    const given = [options.name === undefined ? [] : ['--name'], options.url === undefined ? [] : ['--url']].flat();
    if (given.length > 0)
      throw new BomwrightError(
        'E_USAGE',
        `A static tab takes its name and configuration from the app, and the spec says they must not be sent: drop ${given.join(' and ')}, or pin a configurable tab without --static`,
      );
    return { 'teamsApp@odata.bind': bind };
  }
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

/** The app a listed tab belongs to, when the listing says (`teamsApp.id`). */
function appOf(tab: TeamsTab): string | undefined {
  const app = (tab as Record<string, unknown>).teamsApp;
  return isRecord(app) && typeof app.id === 'string' ? app.id : undefined;
}

/**
 * The channel's tab that is already this one, if any: for a static tab, a tab of the same app; for a configurable
 * tab, one with the same name and dashboard URL (of the same app, when the listing names tabs' apps).
 */
export async function findPinnedTab(
  api: ServiceApi,
  options: TabOptions,
  signal?: AbortSignal,
): Promise<TeamsTab | undefined> {
  const request = tabRequest(api.transport.baseUrl, options);
  for await (const tab of api.groupsAndTeams.listChannelTabs({
    team: options.team,
    channel: options.channel,
    signal,
  })) {
    const app = appOf(tab);
    if (options.static === true) {
      if (app === options.app) return tab;
      continue;
    }
    if (app !== undefined && app !== options.app) continue;
    if (tab.displayName === request.displayName && tab.configuration?.contentUrl === request.configuration?.contentUrl)
      return tab;
  }
  return undefined;
}

/** Pins the dashboard tab to the channel unless the channel already has it: the tab, and whether it was pinned now. */
export async function publishTab(api: ServiceApi, options: TabOptions): Promise<{ tab: TeamsTab; pinned: boolean }> {
  const body = tabRequest(api.transport.baseUrl, options);
  if (options.force !== true) {
    const existing = await findPinnedTab(api, options);
    if (existing !== undefined) return { tab: existing, pinned: false };
  }
  const tab = await api.groupsAndTeams.addChannelTab({ team: options.team, channel: options.channel, body });
  return { tab, pinned: true };
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
