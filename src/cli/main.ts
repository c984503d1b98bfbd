// `context-lens`: the engine from a terminal. Subcommands arrive with the session adapters and the
// engine; until then it answers --version and --help.
import { version } from '../../package.json';

const USAGE = `Usage: context-lens <command> [options]

Commands:
  --version     print the version
  --help        print this help
`;

export function main(argv: readonly string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): number {
  const [first] = argv;
  if (first === '--version' || first === '-v') {
    out.write(`${version}\n`);
    return 0;
  }
  if (first === undefined || first === '--help' || first === '-h') {
    out.write(USAGE);
    return 0;
  }
  err.write(`context-lens: unknown command '${first}'\n\n${USAGE}`);
  return 2;
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));
