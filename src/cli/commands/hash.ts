/**
 * `bomwright hash BOM FILE...`: the hashes of release artefacts, computed from the files and written into the
 * components they are the deployable form of (component `hashes` and the distribution reference's `hashes`).
 */
import { addArtefactHashes, DEFAULT_HASH_ALGORITHMS, HASH_PLACES } from '../../author/hashes.js';
import { BomwrightError } from '../../errors.js';
import { hashFile } from '../../node/hash-files.js';
import { loadEditable } from '../../node/documents.js';
import { defineCommand } from '../command.js';
import { dropSignaturesOption, ONE_VALUE_PER_FLAG, rewriteOptions } from '../options.js';
import { finishEdit } from './edit.js';

export const hashCommand = defineCommand({
  command: 'hash <file> <artefacts..>',
  describe:
    "Hash artefact files (streamed) into their components: hashes[] and the distribution reference's hashes (BSI's deployable hash)",
  builder: (y) =>
    rewriteOptions(dropSignaturesOption(y))
      .positional('file', { type: 'string', demandOption: true, describe: 'The BOM' })
      .positional('artefacts', {
        type: 'string',
        array: true,
        demandOption: true,
        describe: 'Files; each goes to the component whose bsi:component:filename or distribution URL names it',
      })
      .option('component', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        describe: 'The components of the one file given: *, a purl pattern, PATH=VALUE, PATH or !PATH',
      })
      .option('alg', {
        type: 'string',
        ...ONE_VALUE_PER_FLAG,
        default: [...DEFAULT_HASH_ALGORITHMS],
        describe: 'CycloneDX algorithm names',
      })
      .option('in', {
        choices: HASH_PLACES,
        ...ONE_VALUE_PER_FLAG,
        default: [...HASH_PLACES],
        describe: "Where: the component's hashes, its distribution reference's hashes",
      })
      .option('url', {
        type: 'string',
        describe: 'The distribution URL, for a component that has no distribution reference',
      }),
  handler: async (argv, context) => {
    const files = argv.artefacts.map(String);
    if (files.includes(argv.file))
      throw new BomwrightError('E_USAGE', `${argv.file} is the BOM, not an artefact of it`);
    const document = await loadEditable(argv.file);
    const artefacts = [];
    for (const file of files) artefacts.push(await hashFile(file, argv.alg));
    const result = await addArtefactHashes(
      document.value,
      {
        artefacts,
        places: argv.in,
        ...(argv.component === undefined ? {} : { components: argv.component }),
        ...(argv.url === undefined ? {} : { url: argv.url }),
      },
      { allowSignatureInvalidation: argv.dropSignatures },
    );
    const target = { file: argv.file, output: argv.output, to: argv.to, dropSignatures: argv.dropSignatures };
    const what = `the hashes of ${files.length === 1 ? files[0]! : `${files.length} files`}`;
    return finishEdit(target, document, result, `write ${what}`, `Wrote ${what}`, context);
  },
});
