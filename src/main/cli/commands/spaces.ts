import { CliError, EXIT_OK, EXIT_USAGE, type CliCommand } from '../cli-run';
import { onCommandError } from '../output/describe-error';
import { spaceListingJson } from '../output/json';
import { plural, quote } from '../output/text';
import { terminalText } from '../terminal-text';

export const spaces: CliCommand = async (run, values, args) => {
  const [action, spaceId, ...rest] = args;
  if (action === undefined) {
    const { spaces: listed, errors } = await run.app.listSpaces({});
    for (const error of errors) run.warn(`warning: ${error}`);
    if (values.json) {
      run.out(JSON.stringify(listed.map(spaceListingJson), null, 2));
    } else {
      for (const space of listed) {
        const title = terminalText(`${space.emoji ? `${space.emoji} ` : ''}${space.title}`);
        const where = terminalText(space.organization);
        run.out(`${space.enabled ? '[x]' : '[ ]'} ${terminalText(space.id)}  ${title}  (${where})`);
      }
      const enabled = listed.filter((s) => s.enabled).length;
      run.out(`${enabled} of ${plural(listed.length, 'space')} enabled.`);
    }
    return EXIT_OK;
  }
  if (action !== 'enable' && action !== 'disable') {
    throw new CliError(`unknown spaces action ${quote(action)} (enable or disable)`, EXIT_USAGE);
  }
  if (spaceId === undefined || rest.length > 0) {
    throw new CliError(`usage: quire spaces ${action} <spaceId>`, EXIT_USAGE);
  }
  if (values.json) throw new CliError(`spaces ${action} does not take --json`, EXIT_USAGE);
  const enable = action === 'enable';
  await onCommandError(
    run.app.setSpaceEnabled({ spaceId, enabled: enable }),
    'unknown-space',
    () => new CliError(`no space ${quote(spaceId)} (\`quire spaces\` lists them)`),
  );
  run.out(
    enable
      ? `Enabled ${spaceId}. Run \`quire sync --once\` to pull it.`
      : `Disabled ${spaceId}. Its folder is left as it is.`,
  );
  return EXIT_OK;
};
