/**
 * The stand-in server on its own, for trying the extension by hand (`npm run sandbox`).
 *   --port N          port (default: a free one)
 *   --seed demo|empty|N   demo data (default), an empty account, or N generated posts
 *   --data FILE       keep the state in FILE (loaded at start, saved after every change)
 *   --token T         use this token (default: a random one)
 *   --prefix P        account prefix (default acme)
 *   --profile NAME    likely (default), contrary or sparse: how it behaves where the notes say "likely" or leave it open (profile.ts)
 * Logs each request as `METHOD path status ms`, with the token redacted. Ctrl+C stops it.
 */
import { isProfileName, startStandIn, type StandInOptions } from './index';

function usage(problem: string): never {
  console.error(
    `${problem}\nUsage: sandbox [--port N] [--seed demo|empty|N] [--data FILE] [--token T] [--prefix P] [--profile likely|contrary|sparse]`,
  );
  process.exit(2);
}

function parseArgs(args: string[]): StandInOptions {
  const options: StandInOptions = { seed: 'demo' };
  for (let i = 0; i < args.length; i++) {
    const flag = args[i]!;
    const value = args[i + 1];
    if (!['--port', '--seed', '--data', '--token', '--prefix', '--profile'].includes(flag)) usage(`Unknown argument: ${flag}`);
    if (value === undefined) usage(`${flag} needs a value`);
    i++;
    if (flag === '--port') {
      if (!/^\d+$/.test(value) || Number(value) > 65535) usage('--port must be a number 0..65535');
      options.port = Number(value);
    } else if (flag === '--seed') {
      if (value === 'demo' || value === 'empty') options.seed = value;
      else if (/^\d+$/.test(value)) options.seed = { posts: Number(value) };
      else usage('--seed must be demo, empty or a number of posts');
    } else if (flag === '--data') options.dataFile = value;
    else if (flag === '--token') options.token = value;
    else if (flag === '--profile') options.profile = isProfileName(value) ? value : usage('--profile must be likely, contrary or sparse');
    else options.prefix = value;
  }
  return options;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  options.onResponse = ({ method, url, status, ms }) => console.log(`${method} ${url} ${status ?? '-'} ${ms}ms`);
  const standIn = await startStandIn(options);
  console.log(`Stand-in server listening on ${standIn.url}`);
  console.log(`Account prefix: ${standIn.prefix}`);
  console.log(`Profile: ${standIn.profile.name}`);
  console.log(`API token: ${standIn.token}`);
  if (options.dataFile) console.log(`Data file: ${options.dataFile}`);
  console.log(`Try: curl '${standIn.url}/app/clients.json?api_token=<token>'  (Ctrl+C stops the server)`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    standIn.close().then(
      // One more turn of the event loop, so requests ended by the close are logged too.
      () => setImmediate(() => process.exit(0)),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
