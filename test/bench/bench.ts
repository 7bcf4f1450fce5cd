// `npm run bench`: what a person waits for in a real workbench (the extension activating at
// startup, opening the Helpdesk view, Report Bug, Open Post on an e-mail), each paired against a floor extension in the same run; load more at depth; an MCP read against the same tool through VS Code's chat; sizes.
// Exit code 0 whatever the figures; non-zero only when the bench itself could not run.
//
//   npm run bench [-- --quick] [--sessions] [--pairs N] [--against FILE.vsix] [--code-server VERSION] [--post-floor webview] [--bug-floor git] [--save FILE.json] [--verbose]
//     --quick     5 pairs (for a commit); default 15
//     --code-server VERSION  the workbenches in that code-server (default CODE_SERVER_VERSION, see
//                 codeServerInstall.ts), installed once under .cache/ with the Node it runs on, which
//                 then runs its extension hosts too; the report's first line names it
//     --post-floor webview  an experiment: the floor's Open Post shows the content as plain escaped
//                 text in a bare webview panel (static HTML, no script), timed to its text painted in
//                 the webview's frame as ours is, instead of in a text document (the default, `text`):
//                 what is left of ours over it is not the webview's own start
//     --bug-floor git  the floor's Report Bug also asks the built-in Git extension what ours asks it
//                 for the permalink (the file at HEAD, and which remote branches hold HEAD's commit
//                 where its upstream does not say so), while its title box is shown, and waits for
//                 the answers before its POST, instead of the POST alone (the default, `bare`): what
//                 is left of ours over it is not Git's work
//     --git-logs DIR  each sample's Git extension log (Git's commands, each with its time, as the
//                 output channel "Git" shows them) kept in DIR, as a-N.log (ours) and b-N.log (the
//                 floor) in sample order: whether the two asked Git the same, and how long Git took
//     --pairs     pairs per latency (at least 3)
//     --against   instead of the floor, another .vsix of Helpdesk Bridge (e.g. another build):
//                 activation at startup, open to rows, Report Bug and Open Post, at +0 ms, this build
//                 against that one (each profile prepared as for the floor); the same .vsix
//                 against itself must read about 0 ms
//     --slow      this machine made a slower one: the bench and all it starts pinned to one CPU,
//                 beside a process that keeps that CPU busy (see slowMachine.ts); the report says so
//     --save      the run's figures as JSON, for --compare
//     --compare A.json B.json   only: whether two saved runs agree (each paired median within 25 ms)
//     --news      only the news watcher's cost (no workbench; a few seconds)
//     --email     only the e-mail conversions: a 200 KB message as text, an e-mail's tokens (no workbench; seconds)
//     --sessions  the paired sessions in workbenches, without Load more at depth (about a minute less)
//     --depth     only Load more at depth and its heap (one extension host; about a minute)
//     --mcp       only an MCP read's round trip against the same tool through VS Code's chat
//                 (one extension host; seconds after packaging)
//     --profile DIR  a CPU profile of each extension host, from its start, into DIR (see
//                 cpuProfileHook.ts): with --depth, of that one (activation, the first use, the
//                 first page, every Load more); else of every timed sample's, into DIR/ours and
//                 DIR/floor (activation, open to rows, Report Bug), and beside them the workbench
//                 page's over Report Bug's Enter in the title box → "filed" and over Open Post's
//                 click → the thread, as report-bug-N.cpuprofile and open-post-N.cpuprofile, each
//                 said in words as it is taken (see pageProfile.ts);
//                 the figures then carry the profiler's cost
//
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), HELPDESK_TEST_PATIENCE (multiplies every limit, see test/limits.ts).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CODE_SERVER_VERSION, type CodeServerInstall } from '../codeServer/codeServerHost';
import { prepareEditor } from '../codeServer/editor';
import { Cleanups, exitWith, onSignal, seconds, timeLimit, until } from '../codeServer/run';
import { limitMs } from '../limits';
import { createWorkspace, findRepoRoot } from '../codeServer/workspace';
import { startStandIn, type StandIn } from '../server';
import { GMAIL_REPLY_COMMENT, OUTLOOK_REPLY, OUTLOOK_REPLY_COMMENT } from '../server/demoEmails';
import { expectedRows } from '../ui/steps';
import { runInEditor } from './editor';
import { measureEmail } from './email';
import { measureNews } from './news';
import { packageExtension, packageFloor, type Packaged } from './packaging';
import { printComparison } from './compare';
import { floorEnv, floorLabel, readFloors } from './floors';
import { printReport, type BenchFigures, type SessionFigures } from './report';
import { BENCH_ENV, type DepthFigures, type McpFigures } from './results';
import { Installed, type OpensPost, type TimedPosts } from './sessions';
import { becomeSlowMachine, SLOW_MODE } from './slowMachine';

const say = (line: string) => console.log(`[bench] ${line}`);
const cleanups = new Cleanups('bench');
const LATENCIES_MS = [0, 50];
/** Figures 1 and 2: an account of this many generated posts. */
const ACCOUNT_POSTS = 1_000;
/** Load more at depth. */
const DEPTH = { posts: 50_000, pageSize: 100 };
/** MCP reads against VS Code's chat: an account of this many posts (a search reads them all), pairs of each read (--quick: fewer). */
const MCP = { posts: 300, pairs: 60, quickPairs: 30 };
/**
 * With --profile, how long each session's extension host is profiled: a sample is past Report Bug
 * by then (a host that exits earlier writes its profile as it exits, where Node lets it); in the
 * slow mode a sample reaches Report Bug after 22–30 s, so three times as long there.
 */
const SAMPLE_PROFILE_MS = { normal: 20_000, slow: 60_000 };

function whole(value: string | undefined, fallback: number, min: number, what: string): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`${what} must be a whole number ≥ ${min}, not ${value}.`);
  return n;
}

async function bench(): Promise<void> {
  const wallStart = Date.now();
  const { values, positionals } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      pairs: { type: 'string' },
      against: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      news: { type: 'boolean', default: false },
      email: { type: 'boolean', default: false },
      depth: { type: 'boolean', default: false },
      mcp: { type: 'boolean', default: false },
      sessions: { type: 'boolean', default: false },
      profile: { type: 'string' },
      save: { type: 'string' },
      compare: { type: 'boolean', default: false },
      slow: { type: 'boolean', default: false },
      'code-server': { type: 'string' },
      'post-floor': { type: 'string' },
      'bug-floor': { type: 'string' },
      'git-logs': { type: 'string' },
    },
    allowPositionals: true,
  });
  if (values.compare) {
    const [a, b] = positionals;
    if (!a || !b || positionals.length !== 2) throw new Error('--compare takes two files saved with --save.');
    printComparison(
      ...([a, b].map((file) => ({ file, figures: JSON.parse(readFileSync(file, 'utf8')) as BenchFigures })) as [
        { file: string; figures: BenchFigures },
        { file: string; figures: BenchFigures },
      ]),
    );
    return;
  }
  const report = (measured: Omit<BenchFigures, 'slow'>) => {
    const figures: BenchFigures = { ...measured, slow: values.slow };
    printReport(figures);
    if (values.save) {
      writeFileSync(values.save, JSON.stringify(figures, null, 1));
      say(`Figures saved in ${values.save}.`);
    }
  };
  const floors = readFloors(values);
  const version = values['code-server'] ?? CODE_SERVER_VERSION;
  const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
  if (values.slow) becomeSlowMachine(cleanups);
  // Without a workbench (--email, --news), only the bench's own Node.
  const environment = (installedEditor?: CodeServerInstall) => {
    const cpu = cpus();
    const machine = `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}${values.slow ? ` (${SLOW_MODE})` : ''}`;
    const editor = installedEditor
      ? `code-server ${installedEditor.version} (VS Code ${installedEditor.vscodeVersion}, on Node ${installedEditor.nodeVersion}), Chromium (headless), `
      : '';
    return `${editor}the bench on Node ${process.version}, ${machine}, ${new Date().toISOString().slice(0, 16)}Z`;
  };
  say('The e-mail conversions (no workbench)…');
  const email = measureEmail(say);
  if (values.email) {
    report({
      environment: environment(),
      command,
      floorLabel: 'Floor',
      against: false,
      sessions: [],
      email,
      wallMs: Date.now() - wallStart,
    });
    return;
  }
  say("The news watcher's cost (no workbench)…");
  const news = await measureNews(say);
  if (values.news) {
    report({
      environment: environment(),
      command,
      floorLabel: 'Floor',
      against: false,
      sessions: [],
      news,
      email,
      wallMs: Date.now() - wallStart,
    });
    return;
  }
  const pairs = whole(values.pairs, values.quick ? 5 : 15, 3, '--pairs');
  const against = values.against === undefined ? undefined : resolve(values.against);
  const verbose = values.verbose ?? false;
  const root = findRepoRoot();

  const codeServer = await prepareEditor(root, say, { chromium: true, version });
  say(
    `code-server ${codeServer.version} (VS Code ${codeServer.vscodeVersion}) on Node ${codeServer.nodeVersion}, its extension hosts too.`,
  );
  const temp = mkdtempSync(join(tmpdir(), 'hd-bench-'));
  cleanups.add(() => rmSync(temp, { recursive: true, force: true }));
  const workspace = createWorkspace(join(temp, 'workspace'));

  say('Packaging (npm run package)…');
  const packaged = await packageExtension(root, temp, cleanups);
  const total = Object.values(packaged.bundles).reduce((a, b) => a + b, 0);
  say(
    `${basename(packaged.vsix)}: ${packaged.vsixBytes} B; bundles ${Object.entries(packaged.bundles)
      .map(([f, n]) => `${f} ${n} B`)
      .join(', ')} (${total} B).`,
  );
  /** A run of one part alone (--mcp, --depth): no sessions, no floor of its own. */
  const reportPart = (part: Pick<Parameters<typeof report>[0], 'mcp' | 'depth' | 'news'>) =>
    report({
      environment: environment(codeServer),
      command,
      floorLabel: 'Floor',
      against: false,
      sessions: [],
      ...part,
      wallMs: Date.now() - wallStart,
    });
  const mcpPairs = values.quick ? MCP.quickPairs : MCP.pairs;
  if (values.mcp) {
    const mcp = await measureMcp(root, temp, codeServer, packaged, mcpPairs, verbose);
    reportPart({ mcp });
    return;
  }
  if (values.depth) {
    const depth = await measureDepth(
      root,
      temp,
      codeServer,
      packaged,
      verbose,
      values.profile === undefined ? undefined : resolve(values.profile),
    );
    reportPart({ depth, news });
    return;
  }

  const standIn = await startStandIn({ seed: { posts: ACCOUNT_POSTS } });
  cleanups.add(() => standIn.close());
  const emailPost = await makeEmailPost(standIn);
  const lastPostId = Math.max(...standIn.store.account(standIn.prefix).records.posts.keys());
  // Every post the bench files is removed again: the first row is the same in every session.
  const posts: TimedPosts = { first: await firstTitle(standIn), email: emailPost };
  const gitLogs = values['git-logs'] === undefined ? undefined : resolve(values['git-logs']);
  if (gitLogs) mkdirSync(gitLogs, { recursive: true });
  /** With --profile, each side's folder: its extension host's profiles, and its page's over Report Bug and Open Post. */
  const profileDir = (side: string) => (values.profile === undefined ? undefined : join(resolve(values.profile), side));
  const install = async (label: string, vsix: string, dir: string, opensPost: OpensPost, side: string, env?: Record<string, string>) => {
    mkdirSync(join(temp, dir));
    const pageProfiles = profileDir(side);
    return await Installed.prepare(
      {
        label,
        vsix,
        codeServer,
        dir: join(temp, dir),
        workspace,
        standIn,
        lastPostId,
        opensPost,
        env,
        verbose,
        cleanups,
        gitLogs,
        pageProfiles,
      },
      posts,
    );
  };

  say('Preparing a signed-in profile for each extension…');
  const prepared = Date.now();
  // Both profiles are prepared by the same steps (see sessions.ts): filing leaves state (the
  // extension's, Git's) that a profile only signed in lacks, and the view opened once leaves the
  // rows the extension keeps.
  const profiled = (side: string) => {
    const dir = profileDir(side);
    return dir === undefined ? {} : profileEnv(root, dir, SAMPLE_PROFILE_MS[values.slow ? 'slow' : 'normal']);
  };
  const ours = await install('Helpdesk Bridge', packaged.vsix, 'a', 'page', 'ours', profiled('ours'));
  const floor = against
    ? (await install(basename(against), against, 'b', 'page', 'against', profiled('against'))).installed
    : (
        await install('floor', await packageFloor(root, temp, cleanups), 'b', floors.post === 'webview' ? 'page' : 'text', 'floor', {
          HELPDESK_FLOOR_POST: JSON.stringify(ours.post),
          ...floorEnv(floors),
          ...profiled('floor'),
        })
      ).installed;
  say(`Prepared (${seconds(Date.now() - prepared)}). ${pairs} pairs at each latency, a fresh workbench each…`);

  const sessions: SessionFigures[] = [];
  for (const latencyMs of against ? [0] : LATENCIES_MS) {
    standIn.clearFaults();
    if (latencyMs > 0) standIn.addFault({ latencyMs });
    const figures: SessionFigures = { latencyMs, ours: [], floor: [] };
    for (let i = 0; i < pairs; i++) {
      const order = i % 2 === 0 ? ([ours.installed, floor] as const) : ([floor, ours.installed] as const);
      for (const installed of order) {
        const sample = await installed.sample(posts);
        (installed === floor ? figures.floor : figures.ours).push(sample);
      }
      const [a, b] = [figures.ours.at(-1)!, figures.floor.at(-1)!];
      say(
        `+${latencyMs} ms, pair ${i + 1}/${pairs}: activation ${a.activation} / ${b.activation} ms (CPU ${a.activationCpu.toFixed(1)} / ${b.activationCpu.toFixed(1)} ms); open to rows ${a.openToRows.toFixed(0)} / ${b.openToRows.toFixed(0)} ms, the service's ${a.openToServiceRows.toFixed(0)} / ${b.openToServiceRows.toFixed(0)} ms; Report Bug ${(a.reportBugBox + a.reportBugFiled).toFixed(0)} / ${(b.reportBugBox + b.reportBugFiled).toFixed(0)} ms; Open Post ${a.openPost.toFixed(0)} / ${b.openPost.toFixed(0)} ms.`,
      );
    }
    sessions.push(figures);
  }
  standIn.clearFaults();

  const depth = against || values.sessions ? undefined : await measureDepth(root, temp, codeServer, packaged, verbose);
  const mcp = against || values.sessions ? undefined : await measureMcp(root, temp, codeServer, packaged, mcpPairs, verbose);

  report({
    environment: environment(codeServer),
    command,
    floorLabel: against ? basename(against) : floorLabel(floors),
    postFloorWebview: floors.post === 'webview',
    bugFloorGit: floors.bug === 'git',
    against: against !== undefined,
    sessions,
    sizes: { bundles: packaged.bundles, main: packaged.main, vsixName: basename(packaged.vsix), vsixBytes: packaged.vsixBytes },
    depth,
    news,
    mcp,
    email,
    wallMs: Date.now() - wallStart,
  });
}

/** The newest open post's title: the first row the Helpdesk view shows. */
async function firstTitle(standIn: StandIn): Promise<string> {
  const [title] = (await expectedRows(standIn, 1)).posts;
  if (!title) throw new Error('The stand-in account has no open post.');
  return title;
}

/**
 * The second open post of the first rows made a customer's e-mail (Outlook's HTML, with its quoted
 * thread and signature) with three comments, two of them HTML: what Open Post is timed on. Made
 * before the bench's removals start from the newest post, and not the first row (open to rows
 * and Report Bug meet the account as before). Comments are listed only where the profile lists
 * them (not this one, the likely): the page then shows the e-mail and says how many there are.
 */
async function makeEmailPost(standIn: StandIn): Promise<TimedPosts['email']> {
  const title = (await expectedRows(standIn, 2)).posts[1];
  const post = standIn.store.list(standIn.prefix, 'posts').find((p) => p.title === title && p.post_id === null);
  if (!title || !post) throw new Error('The stand-in account has no second open post.');
  standIn.store.update(standIn.prefix, 'posts', post.id, { content: OUTLOOK_REPLY, use_html: true, task_kind: 'email', kind: null });
  for (const content of [OUTLOOK_REPLY_COMMENT, GMAIL_REPLY_COMMENT, 'Thanks, I have forwarded this to finance.'])
    standIn.store.insert(standIn.prefix, 'posts', {
      title: `Re: ${title}`,
      content,
      post_id: post.id,
      task_kind: 'comment',
      use_html: content.startsWith('<'),
    });
  return { title, content: OUTLOOK_REPLY };
}

/** The environment that makes the extension host write a CPU profile into `dir` (see cpuProfileHook.ts). */
function profileEnv(root: string, dir: string, ms = 600_000): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  say(`A CPU profile of the extension host goes into ${dir}.`);
  const hook = join(root, 'out', 'bench', 'cpuProfileHook.js');
  return {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${JSON.stringify(hook)}`.trim(),
    HELPDESK_PROFILE_DIR: dir,
    HELPDESK_PROFILE_MS: String(ms),
  };
}

async function measureDepth(
  root: string,
  temp: string,
  codeServer: CodeServerInstall,
  packaged: Packaged,
  verbose: boolean,
  profileDir?: string,
): Promise<DepthFigures> {
  say(`Load more at depth: ${DEPTH.posts.toLocaleString('en-US')} posts, ${DEPTH.pageSize} a page…`);
  const standIn = await startStandIn({ seed: { posts: DEPTH.posts } });
  const stop = cleanups.add(() => standIn.close());
  const dir = join(temp, 'depth');
  mkdirSync(dir);
  try {
    const output = await runInEditor(
      {
        codeServer,
        dir,
        workspace: join(temp, 'workspace'),
        extensionDevelopmentPath: packaged.extensionDir,
        extensionTestsPath: join(root, 'out', 'bench', 'suite', 'index.js'),
        env: {
          [BENCH_ENV.extension]: packaged.id,
          [BENCH_ENV.account]: JSON.stringify({ posts: DEPTH.posts, url: standIn.url, token: standIn.token }),
          [BENCH_ENV.pageSize]: String(DEPTH.pageSize),
          ...(profileDir ? profileEnv(root, profileDir) : {}),
        },
        timeoutMs: limitMs('benchDepth'),
        verbose,
      },
      cleanups,
    );
    if (!output.depth) throw new Error('The load-more run returned no figures.');
    return output.depth;
  } finally {
    await stop();
  }
}

/** An MCP read against the same tool through VS Code's chat, in one extension host (see suite/mcp.ts). */
async function measureMcp(
  root: string,
  temp: string,
  codeServer: CodeServerInstall,
  packaged: Packaged,
  pairs: number,
  verbose: boolean,
): Promise<McpFigures> {
  say(`MCP reads against VS Code's chat: ${pairs} pairs of each, ${MCP.posts} posts…`);
  const standIn = await startStandIn({ seed: { posts: MCP.posts } });
  const stop = cleanups.add(() => standIn.close());
  const dir = join(temp, 'mcp');
  mkdirSync(dir);
  try {
    const output = await runInEditor(
      {
        codeServer,
        dir,
        workspace: join(temp, 'workspace'),
        extensionDevelopmentPath: packaged.extensionDir,
        extensionTestsPath: join(root, 'out', 'bench', 'suite', 'index.js'),
        env: {
          [BENCH_ENV.extension]: packaged.id,
          [BENCH_ENV.account]: JSON.stringify({ posts: MCP.posts, url: standIn.url, token: standIn.token }),
          [BENCH_ENV.job]: 'mcp',
          [BENCH_ENV.pairs]: String(pairs),
        },
        timeoutMs: limitMs('benchMcp'),
        verbose,
      },
      cleanups,
    );
    if (!output.mcp) throw new Error('The MCP run returned no figures.');
    return output.mcp;
  } finally {
    await stop();
  }
}

async function main(): Promise<number> {
  try {
    await until(bench(), onSignal().stopped, timeLimit(undefined, 'benchRun', cleanups).start());
    return 0;
  } catch (error) {
    console.error(`[bench] The bench could not run: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await cleanups.runAll();
  }
}

exitWith(main(), cleanups);
