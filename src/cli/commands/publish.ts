/** `bomwright publish thread|bundle|tab` and `bomwright notify forward`: a BOM to the people who act on it. */
import type { Argv } from 'yargs';
import { readFileOrFail } from '../../node/files.js';
import { DEFAULT_MAX_SIZE } from '../../validate/index.js';
import {
  bomIdentity,
  findPinnedTab,
  findPublishedReply,
  notifyForward,
  forwardRequest,
  bundleHolds,
  publishBundle,
  publishTab,
  publishThread,
  tabRequest,
  threadReply,
} from '../../flows/publish.js';
import type { CliCommand, CliContext } from '../command.js';
import { requestLine, runServiceAction, serviceActionOptions, type ActionArgv } from '../service-action.js';
import path from 'node:path';

interface PublishArgv extends ActionArgv {
  file?: string;
  group?: string;
  thread?: string;
  conversation?: string;
  comment?: string;
  link?: string;
  bundle?: string;
  item?: string;
  team?: string;
  channel?: string;
  app?: string;
  url?: string;
  name?: string;
  static: boolean;
  event?: string;
  user?: string;
  to?: string[];
  force: boolean;
}

const shown = (body: unknown) =>
  JSON.stringify(body, (key, value: unknown) =>
    key === 'contentBytes' && typeof value === 'string' ? `(${value.length} base64 characters)` : value,
  );

async function thread(argv: PublishArgv, context: CliContext): Promise<number> {
  const file = argv.file!;
  const text = readFileOrFail(path.resolve(context.cwd, file), DEFAULT_MAX_SIZE).toString('utf8');
  const options = {
    group: argv.group!,
    thread: argv.thread!,
    conversation: argv.conversation,
    comment: argv.comment,
    link: argv.link,
    fileName: path.basename(file),
    force: argv.force,
  };
  const where = `thread ${argv.thread} of group ${argv.group}`;
  return runServiceAction(argv, context, async (api, dryRun) => {
    const identity = bomIdentity(text);
    if (dryRun) {
      const reply = await threadReply(text, options);
      const existing = argv.force ? undefined : await findPublishedReply(text, api, options);
      const request = await requestLine(
        api,
        'replyToThread',
        { group: argv.group, conversation: argv.conversation, thread: argv.thread },
        shown(reply.body),
      );
      return {
        lines: [
          existing === undefined
            ? `Would reply in ${where}: ${request.text}`
            : `${alreadyInThread(where, identity.label, existing)}; would send nothing`,
        ],
        report: {
          group: argv.group,
          thread: argv.thread,
          identity: identity.label,
          published: false,
          ...existingOf(existing),
          ...(existing === undefined ? { method: request.method, url: request.url } : {}),
        },
      };
    }
    const reply = await publishThread(text, api, options);
    const report = {
      group: argv.group,
      thread: argv.thread,
      identity: identity.label,
      published: reply.published,
      ...existingOf(reply.existing),
      attachment: reply.attachment,
      bytes: reply.bytes,
      summary: reply.summary,
    };
    if (!reply.published) return { lines: [alreadyInThread(where, identity.label, reply.existing!)], report };
    const how =
      reply.attachment === 'file'
        ? `attached (${reply.bytes} bytes${argv.link === undefined ? '' : '; under 3 MB, so --link was not needed'})`
        : `linked (${reply.bytes} bytes): ${argv.link}`;
    return { lines: [`Replied in ${where}: ${path.basename(file)} ${how}`, reply.summary], report };
  });
}

const existingOf = (existing: { postId: string; sameContent: boolean } | undefined) =>
  existing === undefined ? {} : { existingPost: existing.postId, sameContent: existing.sameContent };

function alreadyInThread(where: string, label: string, existing: { postId: string; sameContent: boolean }): string {
  const line = `Already published in ${where} (post ${existing.postId}): ${label}; nothing sent (--force replies again)`;
  return existing.sameContent
    ? line
    : `${line}. That post's BOM has this serial number and version but other content: bump the version (bomwright bump) to publish the change`;
}

function bundle(argv: PublishArgv, context: CliContext): Promise<number> {
  return runServiceAction(argv, context, async (api, dryRun) => {
    const report = { bundle: argv.bundle, item: argv.item };
    if (dryRun) {
      const held = await bundleHolds(api, { bundle: argv.bundle!, item: argv.item! });
      const body = { id: argv.item! };
      const request = await requestLine(api, 'addBundleItem', { bundle: argv.bundle }, JSON.stringify(body));
      return {
        lines: [
          held
            ? `Drive item ${argv.item} is already in bundle ${argv.bundle}; nothing to send`
            : `Would add drive item ${argv.item} to bundle ${argv.bundle}: ${request.text}`,
        ],
        report: held ? report : { ...report, request: body, method: request.method, url: request.url },
      };
    }
    const { added } = await publishBundle(api, { bundle: argv.bundle!, item: argv.item! });
    return {
      lines: [
        added
          ? `Added drive item ${argv.item} to bundle ${argv.bundle}`
          : `Drive item ${argv.item} is already in bundle ${argv.bundle}; nothing changed`,
      ],
      report: { ...report, added },
    };
  });
}

function tab(argv: PublishArgv, context: CliContext): Promise<number> {
  const options = {
    team: argv.team!,
    channel: argv.channel!,
    app: argv.app!,
    url: argv.url,
    name: argv.name,
    static: argv.static,
    force: argv.force,
  };
  const already = (tab: { id?: string | null; displayName?: string | null }) =>
    `Already pinned to channel ${argv.channel}: tab ${JSON.stringify(tab.displayName ?? '')} (${tab.id}); nothing sent (--force pins another)`;
  return runServiceAction(argv, context, async (api, dryRun) => {
    if (dryRun) {
      const body = tabRequest(api.transport.baseUrl, options);
      const existing = argv.force ? undefined : await findPinnedTab(api, options);
      const request = await requestLine(
        api,
        'addChannelTab',
        { team: argv.team, channel: argv.channel },
        JSON.stringify(body),
      );
      return {
        lines: [
          existing === undefined
            ? `Would pin to channel ${argv.channel}: ${request.text}`
            : `${already(existing)}; would send nothing`,
        ],
        report: {
          request: body,
          pinned: false,
          ...(existing === undefined ? { method: request.method, url: request.url } : { tab: existing }),
        },
      };
    }
    const { tab: result, pinned } = await publishTab(api, options);
    return {
      lines: [
        pinned
          ? `Pinned tab ${JSON.stringify(result.displayName ?? '')} (${result.id}) to channel ${argv.channel}${result.webUrl ? `: ${result.webUrl}` : ''}`
          : already(result),
      ],
      report: { tab: result, pinned },
    };
  });
}

function forward(argv: PublishArgv, context: CliContext): Promise<number> {
  const options = { event: argv.event!, user: argv.user, to: argv.to ?? [], comment: argv.comment };
  return runServiceAction(argv, context, async (api, dryRun) => {
    const body = forwardRequest(options);
    const what = `event ${argv.event} to ${options.to.join(', ')}`;
    if (dryRun) {
      const request = await requestLine(
        api,
        'forwardEvent',
        { user: argv.user, event: argv.event },
        JSON.stringify(body),
      );
      return {
        lines: [`Would forward ${what}: ${request.text}`],
        report: { event: argv.event, request: body, method: request.method, url: request.url },
      };
    }
    await notifyForward(api, options);
    return { lines: [`Forwarded ${what}`], report: { event: argv.event, request: body } };
  });
}

type Handler = (argv: PublishArgv, context: CliContext) => Promise<number>;
const run = (handler: Handler, context: CliContext, done: (code: number) => void) => async (argv: unknown) =>
  done(await handler(argv as PublishArgv, context));

export const publishCommand: CliCommand = {
  command: 'publish',
  register(parser, context, done) {
    return parser.command(
      'publish',
      'Publish a BOM through the service: a thread reply, a release bundle, a channel tab',
      (y: Argv) =>
        y
          .version(false)
          .command(
            'thread <file>',
            'Reply in a group thread with the BOM attached and its validation summary (3 MB or more: --link)',
            (c) =>
              serviceActionOptions(c.positional('file', { type: 'string', demandOption: true, describe: 'the BOM' }))
                .option('group', { type: 'string', demandOption: true, describe: 'group id' })
                .option('thread', { type: 'string', demandOption: true, describe: 'thread id' })
                .option('conversation', { type: 'string', describe: 'conversation id (the other path form)' })
                .option('comment', { type: 'string', describe: 'text before the validation summary' })
                .option('link', { type: 'string', describe: 'for a BOM of 3 MB or more: the URL to link instead' })
                .option('force', {
                  type: 'boolean',
                  default: false,
                  describe: 'Reply even when the thread already carries this BOM version',
                }),
            run(thread, context, done),
          )
          .command(
            'bundle',
            "Add the published BOM's drive item to a release bundle",
            (c) =>
              serviceActionOptions(c)
                .option('bundle', { type: 'string', demandOption: true, describe: 'bundle id' })
                .option('item', { type: 'string', demandOption: true, describe: "the BOM's drive item id" }),
            run(bundle, context, done),
          )
          .command(
            'tab',
            'Pin a BOM dashboard tab to a channel',
            (c) =>
              serviceActionOptions(c)
                .option('team', { type: 'string', demandOption: true, describe: 'team id' })
                .option('channel', { type: 'string', demandOption: true, describe: 'channel id' })
                .option('app', { type: 'string', demandOption: true, describe: 'Teams app id (installed in the team)' })
                .option('url', { type: 'string', describe: "the dashboard's URL (a configurable tab)" })
                .option('name', { type: 'string', describe: 'tab name (default SBOM)' })
                .option('static', {
                  type: 'boolean',
                  default: false,
                  describe: "the app's static tab: pinned without name or configuration, which come from the app",
                })
                .option('force', {
                  type: 'boolean',
                  default: false,
                  describe: 'Pin even when the channel already has this tab',
                }),
            run(tab, context, done),
          )
          .demandCommand(1, 'Name a target: thread, bundle or tab'),
    );
  },
};

export const notifyCommand: CliCommand = {
  command: 'notify',
  register(parser, context, done) {
    return parser.command('notify', 'Tell the people who act on a BOM: forward the release review meeting', (y: Argv) =>
      y
        .version(false)
        .command(
          'forward',
          'Forward the release review meeting to reviewers',
          (c) =>
            serviceActionOptions(c)
              .option('event', { type: 'string', demandOption: true, describe: 'event id' })
              .option('user', { type: 'string', describe: 'the organiser (default: the signed-in user)' })
              .option('to', { type: 'string', array: true, demandOption: true, describe: 'reviewer email addresses' })
              .option('comment', { type: 'string', describe: 'a note for the reviewers' }),
          run(forward, context, done),
        )
        .demandCommand(1, 'Name how: forward'),
    );
  },
};
