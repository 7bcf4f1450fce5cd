// What `npm run test:integration` runs: the suite, then its Restricted Mode run. The arguments go
// to each run; a narrowed run (--file, --grep, or --restricted itself) is that one run alone, so
// `npm run test:integration -- --file reportBug` runs one file, not the whole suite before it.

const NARROWING = ['--file', '--grep', '--restricted'];

/** The argument lists of codeServer.js's runs, in order; each runs only if the one before passed. */
export function integrationRuns(args: readonly string[]): string[][] {
  const narrowed = args.some((arg) => NARROWING.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
  return narrowed ? [[...args]] : [[...args], ['--restricted', ...args]];
}
