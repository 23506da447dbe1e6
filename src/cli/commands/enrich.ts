/** `bomwright enrich authors|label|approval FILE`: the organisation's records from the service, into the BOM. */
import type { Argv } from 'yargs';
import { enrichApproval } from '../../flows/approval.js';
import { enrichAuthors, type PersonReport } from '../../flows/authors.js';
import { enrichLabel } from '../../flows/label.js';
import type { CliCommand, CliContext } from '../command.js';
import { documentFlowOptions, runDocumentFlow, type FlowArgv } from '../document-flow.js';

interface EnrichArgv extends FlowArgv {
  concurrency?: number;
  category?: string;
  subcategory?: string;
  request?: string;
  policyCheck?: string;
}

function authors(argv: EnrichArgv, context: CliContext): Promise<number> {
  return runDocumentFlow(argv, context, async (document, api) => {
    const result = await enrichAuthors(document, api, { concurrency: argv.concurrency });
    const lines = result.people.map((person) => {
      if (person.status === 'unknown') return `${person.email}: not in the directory (left as it is)`;
      return `${person.email}: ${phoneLine(person)}; ${person.phishingResistant ? 'has' : 'has no'} phishing-resistant method`;
    });
    return { document: result.document, calls: result.calls, lines, report: { people: result.people } };
  });
}

/** What the run did to the person's phone in the document: only what changed is said to be written. */
function phoneLine(person: PersonReport): string {
  if (person.phone === undefined) return `no phone (${person.phoneNote})`;
  const { written, unchanged, kept } = person.phoneContacts ?? { written: 0, unchanged: 0, kept: 0 };
  const contacts = (n: number) => (n === person.contacts ? '' : ` in ${n} of ${person.contacts} contacts`);
  const parts: string[] = [];
  if (written > 0) parts.push(`phone ${person.phone} written${contacts(written)}`);
  if (unchanged > 0) parts.push(`phone ${person.phone} already there${contacts(unchanged)}`);
  if (kept > 0) parts.push(`hand-written phone kept${contacts(kept)} (the directory has ${person.phone}; not written)`);
  return parts.join(', ');
}

function label(argv: EnrichArgv, context: CliContext): Promise<number> {
  return runDocumentFlow(argv, context, async (document, api) => {
    const result = await enrichLabel(document, api, { category: argv.category!, subcategory: argv.subcategory! });
    return {
      document: result.document,
      calls: result.calls,
      lines: [`label ${result.label.displayName ?? result.label.id}`],
      report: { label: result.label },
    };
  });
}

function approval(argv: EnrichArgv, context: CliContext): Promise<number> {
  return runDocumentFlow(argv, context, async (document, api) => {
    const result = await enrichApproval(document, api, { request: argv.request!, policyCheck: argv.policyCheck });
    const lines: string[] = [];
    if (result.requirements !== undefined) {
      lines.push(`applicable policy requirements of ${argv.policyCheck}: ${result.requirements.length}`);
      for (const requirement of result.requirements) lines.push(`  ${JSON.stringify(requirement)}`);
    }
    lines.push(
      `request ${result.request.id}: ${result.request.state ?? 'no state'} (${result.request.status ?? 'no status'})`,
    );
    return {
      document: result.document,
      calls: result.calls,
      lines,
      report: {
        request: result.request,
        ...(result.requirements === undefined ? {} : { requirements: result.requirements }),
      },
    };
  });
}

const bomFile = <T>(y: Argv<T>) => y.positional('file', { type: 'string', demandOption: true, describe: 'the BOM' });

export const enrichCommand: CliCommand = {
  command: 'enrich',
  register(parser, context, done) {
    const run = (handler: (argv: EnrichArgv, context: CliContext) => Promise<number>) => async (argv: unknown) =>
      done(await handler(argv as EnrichArgv, context));
    return parser.command(
      'enrich',
      "Fill a BOM from the service's records: authors (phones, phishing-resistant sign-in), label, approval",
      (y: Argv) =>
        y
          .version(false)
          .command(
            'authors <file>',
            "Each contact's phone from the person's phone methods, and whether the person signs in phishing-resistant",
            (c) =>
              documentFlowOptions(bomFile(c)).option('concurrency', {
                type: 'number',
                default: 8,
                describe: 'Lookups at once',
              }),
            run(authors),
          )
          .command(
            'label <file>',
            "The security label's subcategory template, in metadata properties",
            (c) =>
              documentFlowOptions(bomFile(c))
                .option('category', { type: 'string', demandOption: true, describe: 'label category id' })
                .option('subcategory', { type: 'string', demandOption: true, describe: 'subcategory id' }),
            run(label),
          )
          .command(
            'approval <file>',
            'The access package assignment request that approved the release (it must be delivered)',
            (c) =>
              documentFlowOptions(bomFile(c))
                .option('request', { type: 'string', demandOption: true, describe: 'assignment request id' })
                .option('policy-check', {
                  type: 'string',
                  describe: "List this access package's applicable policy requirements first",
                }),
            run(approval),
          )
          .demandCommand(1, 'Name a flow: authors, label or approval'),
    );
  },
};
