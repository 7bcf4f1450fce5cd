// Several windows' news watchers on one real temporary storage folder, with a fake clock, a focus
// of each window's own, and a fake service per account that counts its requests.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, type Page, type Post } from '../../src/api';
import { Log } from '../../src/log';
import type { Notifier } from '../../src/ui/notifier';
import type { NotifyScope } from '../../src/watch/news';
import type { WhoIAm } from '../../src/accounts/identity';
import { whoIs } from './whoIs';
import { NewsFolder } from '../../src/watch/newsFiles';
import { NewsWatcher, type WatchedAccount } from '../../src/watch/watcher';
import type { WatcherHost } from '../../src/watch/watcherHost';
import { diskIdle, EventEmitter, Uri } from './fakeVscode';

export const MINUTE = 60_000;
const TIMER_MAX = 2 ** 31 - 1;

/** Timers on a clock that moves only when told; a delay over 2^31−1 ms fires after 1 ms, as Node's does (and is counted). */
export class FakeClock {
  now = Date.parse('2026-03-02T09:00:00Z');
  private readonly timers = new Map<number, { at: number; run: () => void }>();
  private next = 1;
  /** Delays asked over 2^31−1 ms, or not finite. */
  overflows = 0;
  /** Timers fired so far. */
  fired = 0;

  setTimeout(run: () => void, ms: number): number {
    const bad = !(ms <= TIMER_MAX);
    if (bad) this.overflows += 1;
    const id = this.next++;
    this.timers.set(id, { at: this.now + (bad ? 1 : Math.max(1, ms)), run });
    return id;
  }

  clearTimeout(id: unknown): void {
    this.timers.delete(id as number);
  }

  get pending(): number {
    return this.timers.size;
  }

  /** Runs every timer due in the next `ms`, in order, letting the disk and the promises settle between. */
  async advance(ms: number): Promise<void> {
    const end = this.now + ms;
    for (let fired = 0; ; fired++) {
      await diskIdle();
      const due = [...this.timers].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      if (fired > 5000) throw new Error(`a storm: over 5,000 timers fired in ${ms} ms`);
      this.timers.delete(due[0]);
      this.fired += 1;
      this.now = Math.max(this.now, due[1].at);
      due[1].run();
    }
    this.now = end;
    await diskIdle();
  }

  /** The clock set to another time (back or ahead); timers stay where they are in time left to run, as Node's do. */
  async jump(ms: number): Promise<void> {
    for (const timer of this.timers.values()) timer.at += ms;
    this.now += ms;
    await diskIdle();
  }
}

/** A helpdesk in memory: posts listed newest first (or oldest first), `perPage` a page, and what it answered. */
export class FakeService implements WatchedAccount {
  readonly posts: Post[] = [];
  requests = 0;
  /** Answers every request with a 429 asking this many seconds, while set. */
  retryAfter: number | undefined;
  /** Fails every request (a network failure), while set. */
  down = false;
  readonly orderRefused = false;

  constructor(
    readonly url: string,
    private readonly options: { oldestFirst?: boolean; perPage?: number } = {},
  ) {}

  private edits = 0;

  /** A post added, or changed (its `updated_at` moves on, as the service's does). */
  add(post: Partial<Post> & { id: number }): void {
    const at = new Date(Date.parse('2026-01-01T00:00:00Z') + ++this.edits * 1000).toISOString();
    const before = this.posts.findIndex((p) => p.id === post.id);
    const next = {
      title: `Post ${post.id}`,
      user_id: 2,
      responsible_id: null,
      comments_cache: 0,
      closed: false,
      ...(before >= 0 ? this.posts[before] : {}),
      ...post,
      updated_at: at,
    };
    if (before >= 0) this.posts[before] = next;
    else this.posts.push(next);
  }

  postsPage(page: number, perPage: number): Promise<Page<Post>> {
    return this.page(page, perPage, false);
  }

  /** Latest changed first, unless the service lists oldest first whatever it is asked. */
  changedPostsPage(page: number, perPage: number): Promise<Page<Post>> {
    return this.page(page, perPage, !this.options.oldestFirst);
  }

  private page(page: number, asked: number, byUpdated: boolean): Promise<Page<Post>> {
    this.requests += 1;
    if (this.retryAfter !== undefined)
      return Promise.reject(
        new ApiError({
          kind: 'rateLimited',
          method: 'GET',
          path: '/app/posts.json',
          host: new URL(this.url).host,
          status: 429,
          retryAfterSeconds: this.retryAfter,
        }),
      );
    if (this.down)
      return Promise.reject(
        new ApiError({ kind: 'network', method: 'GET', path: '/app/posts.json', host: new URL(this.url).host, code: 'ECONNRESET' }),
      );
    const perPage = Math.min(asked, this.options.perPage ?? 100);
    const sorted = [...this.posts].sort((a, b) =>
      byUpdated ? String(b.updated_at).localeCompare(String(a.updated_at)) : this.options.oldestFirst ? a.id - b.id : b.id - a.id,
    );
    const items = sorted.slice((page - 1) * perPage, page * perPage).map((post) => ({ ...post }));
    return Promise.resolve({ items, received: items.length });
  }
}

export interface Shown {
  window: string;
  text: string;
  buttons: string[];
}

/** One VS Code window: its watcher, its account, focus and settings. */
export class FakeWindow {
  readonly focus = new EventEmitter<boolean>();
  readonly accountChanged = new EventEmitter<unknown>();
  readonly intervalChanged = new EventEmitter<void>();
  focused = false;
  intervalMinutes = 5;
  notify: NotifyScope = 'assignedToMe';
  account: FakeService | undefined;
  /** The answer the next notification gets (a button's label, when it comes), else dismissed. */
  answer: string | Promise<string | undefined> | undefined;
  readonly ran: { command: string; args: unknown[] }[] = [];
  readonly folder: NewsFolder;
  readonly watcher: NewsWatcher;
  me: WhoIAm = whoIs(7);

  constructor(
    readonly rig: WatchRig,
    readonly name: string,
    account: FakeService | undefined,
    options: { focused?: boolean; intervalMinutes?: number } = {},
  ) {
    this.account = account;
    this.focused = options.focused ?? false;
    this.intervalMinutes = options.intervalMinutes ?? 5;
    const clock = rig.clock;
    const host: WatcherHost = {
      now: () => clock.now,
      setTimeout: (run, ms) => clock.setTimeout(run, ms),
      clearTimeout: (handle) => clock.clearTimeout(handle),
      focused: () => this.focused,
      onDidChangeFocus: this.focus.event as WatcherHost['onDidChangeFocus'],
      settings: () => ({ intervalMinutes: this.intervalMinutes, notify: this.notify }),
      onDidChangeInterval: this.intervalChanged.event as WatcherHost['onDidChangeInterval'],
      run: (command, ...args) => {
        this.ran.push({ command, args });
        return Promise.resolve(undefined);
      },
    };
    const ui = {
      info: (text: string, ...buttons: string[]) => {
        rig.shown.push({ window: name, text, buttons });
        const answer = this.answer;
        this.answer = undefined;
        return Promise.resolve(answer).then((label) => (label !== undefined && buttons.includes(label) ? label : undefined));
      },
    } as unknown as Notifier;
    this.folder = new NewsFolder(rig.storage as unknown as import('vscode').Uri);
    this.watcher = new NewsWatcher(
      () => this.account,
      this.accountChanged.event,
      () => this.me,
      this.folder,
      name,
      ui,
      new Log(),
      MINUTE,
      host,
    );
    this.watcher.start();
  }

  setFocus(focused: boolean): void {
    this.focused = focused;
    this.focus.fire(focused);
  }

  /** Signed in to another account (or out): the sign-out forgets the account's files, as extension.ts does. */
  async switchTo(account: FakeService | undefined): Promise<void> {
    const before = this.account;
    this.account = account;
    this.accountChanged.fire(undefined);
    if (before && !account) await this.folder.forget(before.url);
  }

  close(): void {
    this.watcher.dispose();
    this.folder.dispose();
  }
}

export class WatchRig {
  readonly clock = new FakeClock();
  readonly dir = mkdtempSync(join(tmpdir(), 'hd-watch-'));
  /** Not a `file:` URI, so that the news files are renamed through workspace.fs (which the fake watchers hear). */
  readonly storage = Uri.from({ scheme: 'test-storage', path: this.dir });
  readonly shown: Shown[] = [];
  readonly windows: FakeWindow[] = [];

  window(name: string, account: FakeService | undefined, options: { focused?: boolean; intervalMinutes?: number } = {}): FakeWindow {
    const window = new FakeWindow(this, name, account, options);
    this.windows.push(window);
    return window;
  }

  /** The news folder's files: name → text. */
  files(): Map<string, string> {
    const folder = join(this.dir, 'news');
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return new Map();
    }
    return new Map(names.filter((n) => n.endsWith('.json')).map((name) => [name, readFileSync(join(folder, name), 'utf8')]));
  }

  /** Writes `text` over every news file whose name starts with `kind.` (for the account's files). */
  corrupt(kind: string, text: string): void {
    for (const name of this.files().keys()) if (name.startsWith(`${kind}.`)) writeFileSync(join(this.dir, 'news', name), text);
  }

  close(): void {
    for (const window of this.windows) window.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
