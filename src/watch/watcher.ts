import vscode = require('vscode');
import { isApiError, readPage, type Page, type Post } from '../api';
import type { Log } from '../log';
import type { Notifier } from '../ui/notifier';
import { labelText } from '../text/serverText';
import { errorText } from '../ui/errorText';
import { compare, heldNews, isSeen, newsPosts, wanted, type HeldNews, type Me, type SeenMarks } from './news';
import { MAX_CHANGED_PAGES, readChanges, type ChangesSource } from './changedPosts';
import { NEWS_KEPT, type NewsFile, type NewsFolder } from './newsFiles';
import { Wakefulness } from './wakefulness';
import { editorHost, type WatcherHost } from './watcherHost';

const { l10n } = vscode;

/** What the watcher reads through: the signed-in account, if any. */
export interface WatchedAccount {
  readonly url: string;
  postsPage(page: number, perPage: number, signal?: AbortSignal): Promise<Page<Post>>;
  /** A page asked latest changed first (`order=updated_at.desc`): the service may ignore that, or refuse it. */
  changedPostsPage(page: number, perPage: number, signal?: AbortSignal): Promise<Page<Post>>;
  /** Whether the service refused `order`: it then lists in its own order. */
  readonly orderRefused: boolean;
}

/** A window unfocused for this long polls no more, and catches up when it is focused again. */
const ASLEEP_AFTER_MS = 60 * 60_000;
/** After failures, the wait grows to at most this. */
const MAX_BACKOFF_MS = 60 * 60_000;
/** A lease lasts the wait to the next poll and this much more, so that a late poll does not lose it. */
const LEASE_GRACE_MS = 60_000;
/** Between taking a lease and trusting it: another window that took it at the same moment has written by then. */
const LEASE_SETTLE_MS = 300;

/**
 * Reads what changed in the helpdesk every `helpdesk.watch.intervalMinutes`, in one window per
 * account (the one holding the lease, see NewsFolder); every window shows the news from the
 * files that window writes, and one notification at most is shown for a poll, in the focused
 * window. Nothing is read while signed out, or while the window has been unfocused for an hour;
 * failures wait longer each time (a 429 as long as it asks) and are said in the status bar's
 * tooltip, never in a notification. Disposed, it leaves no timer.
 */
export class NewsWatcher implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the news, what was seen, or the state of polling changed. */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private timer: unknown;
  private failures = 0;
  private readonly wakefulness: Wakefulness;
  private readonly host: WatcherHost;
  private asleep = false;
  /** The turn under way (lease, read, files): one at a time, whoever asks (the timer, a restart, Check Now). */
  private turn: Promise<void> | undefined;
  /** How many turns were taken (a restart schedules none once one was asked for since). */
  private turns = 0;
  private controller = new AbortController();
  private disposed = false;
  /** The files of the account shown, as last read. */
  private file: NewsFile | undefined;
  private seenMarks: SeenMarks = new Map();
  private shownFor: string | undefined;
  /** The account polled for; another one (or none) starts again. */
  private bound: WatchedAccount | undefined;

  constructor(
    private readonly account: () => WatchedAccount | undefined,
    onDidChangeAccount: vscode.Event<unknown>,
    private readonly me: (accountUrl: string) => Me,
    private readonly folder: NewsFolder,
    /** This window's name in leases. */
    private readonly window: string,
    private readonly ui: Notifier,
    private readonly log: Log,
    /** The length of a minute of `helpdesk.watch.intervalMinutes` (ms); tests shorten it to watch many polls. */
    private readonly minuteMs = 60_000,
    host?: WatcherHost,
  ) {
    this.host = host ?? editorHost();
    this.wakefulness = new Wakefulness(this.host.focused(), this.host.now(), ASLEEP_AFTER_MS);
    this.disposables.push(
      onDidChangeAccount(() => this.account() !== this.bound && this.restart()),
      folder.onDidChange(() => void this.reload()),
      this.host.onDidChangeInterval(() => this.restart()),
      this.host.onDidChangeFocus((focused) => {
        this.wakefulness.focusChanged(focused, this.host.now());
        if (!focused) return;
        void this.notify();
        if (this.asleep) {
          this.asleep = false;
          this.schedule(0);
        }
      }),
    );
    this.restart();
  }

  /** The news of the account signed in to, newest first. */
  get items(): readonly HeldNews[] {
    return this.file?.items ?? [];
  }

  /** News for the person not marked as seen: the count the status bar and the badge show. */
  get unseenForMe(): HeldNews[] {
    return this.items.filter((item) => item.mine && !isSeen(item, this.seenMarks));
  }

  /** Whether the news on post `id` was seen; undefined when it has none. */
  isSeen(id: number): boolean | undefined {
    const item = this.itemOf(id);
    return item && isSeen(item, this.seenMarks);
  }

  /** The news of post `id`, if any. */
  itemOf(id: number): HeldNews | undefined {
    return this.items.find((item) => item.id === id);
  }

  /** The posts with news, newest news first: as `loaded` has them, else as the last poll saw them. */
  posts(loaded: ReadonlyMap<number, Post>): Post[] {
    return newsPosts(this.items, loaded, this.file?.snapshot);
  }

  /** Where polling stands, for a tooltip: when it last read, when it reads next, and why it failed. */
  get status(): { polledAt?: number; nextAt?: number; problem?: string; off: boolean } {
    const off = this.host.settings().intervalMinutes === 0 || !this.account();
    return { polledAt: this.file?.polledAt, nextAt: this.file && this.dueAt(this.file), problem: this.file?.problem, off };
  }

  /**
   * Marks news as seen (all of it when no ids are given), in every window; `false` takes the mark
   * back. Resolves to the ids whose mark changed (what an Undo gives back).
   */
  async markSeen(ids: readonly number[] | undefined, seen = true): Promise<number[]> {
    const url = this.account()?.url;
    if (!url) return [];
    const marks = await this.folder.seen(url);
    const changed: number[] = [];
    for (const item of this.items) {
      if (ids && !ids.includes(item.id)) continue;
      if (isSeen(item, marks) === seen) continue;
      if (seen) marks.set(item.id, item.seq);
      else marks.delete(item.id);
      changed.push(item.id);
    }
    if (changed.length === 0) return changed;
    await this.folder.writeSeen(url, marks);
    this.seenMarks = marks;
    this.changed.fire();
    return changed;
  }

  /**
   * Polls now, as the timer would: if this window may (it holds or takes the lease). `takeOver`
   * (Check for News Now, asked for in this window) takes the lease from another window: the
   * person asked here, and the other window leaves the reading to this one from its next turn.
   * The read starts after the call (after a turn under way, if any); resolves once done.
   */
  async pollNow({ takeOver = false } = {}): Promise<void> {
    this.host.clearTimeout(this.timer);
    await this.tick(takeOver);
  }

  dispose(): void {
    this.disposed = true;
    this.host.clearTimeout(this.timer);
    this.timer = undefined;
    this.controller.abort();
    for (const d of this.disposables) d.dispose();
    // Best effort, as the window closes: a lease of this window's ends now, so another window reads from its next turn.
    const url = this.bound?.url;
    if (url) {
      void this.folder
        .lease(url)
        .then(async (lease) => {
          if (lease?.window === this.window) await this.folder.writeLease(url, { window: this.window, until: 0 });
        })
        .catch(() => undefined);
    }
  }

  /** Another account, signed out, or another interval: starts again from the files. */
  private restart(): void {
    // An account signed out of has its files forgotten at the session's side (see extension.ts), in every window.
    this.bound = this.account();
    this.host.clearTimeout(this.timer);
    this.timer = undefined;
    this.controller.abort();
    this.controller = new AbortController();
    this.failures = 0;
    this.file = undefined;
    this.seenMarks = new Map();
    // Signed in again after a sign-out, the polls are numbered from the start again: seq 1 is news not told yet.
    this.shownFor = undefined;
    this.changed.fire();
    if (!this.account() || this.host.settings().intervalMinutes === 0) return;
    const turns = this.turns;
    void this.reload().then(async () => {
      // After a turn under way (of the account before, aborted), unless one was taken since (Check Now): it schedules the next itself.
      await this.turn?.catch(() => undefined);
      if (this.turns === turns) this.schedule(this.dueIn());
    });
  }

  /** How long until a poll is due, from the files: at once when none was made or its time has passed. */
  private dueIn(): number {
    return Math.max(0, (this.file ? this.dueAt(this.file) : 0) - this.host.now());
  }

  /**
   * When the next poll is due: when the last one said, or sooner when the interval has been
   * shortened since (counted from that poll). After a failure, when it said: it waits longer on
   * purpose (a 429 as long as it asks).
   */
  private dueAt(file: NewsFile): number {
    const minutes = this.host.settings().intervalMinutes;
    if (file.problem || !file.polledAt || minutes === 0) return file.nextAt;
    return Math.min(file.nextAt, file.polledAt + minutes * this.minuteMs);
  }

  private schedule(ms: number): void {
    this.host.clearTimeout(this.timer);
    if (this.disposed) return;
    this.timer = this.host.setTimeout(() => void this.tick().catch((error: unknown) => this.log.error('News: a turn failed', error)), ms);
  }

  /** A turn after the one under way, if any (which may be for an account since left). */
  private tick(takeOver = false): Promise<void> {
    const after = this.turn?.catch(() => undefined) ?? Promise.resolve();
    const turn: Promise<void> = after.then(() => this.takeTurn(takeOver)).finally(() => {
      if (this.turn === turn) this.turn = undefined;
    });
    this.turn = turn;
    return turn;
  }

  private async takeTurn(takeOver: boolean): Promise<void> {
    this.turns += 1;
    this.timer = undefined;
    const account = this.account();
    const minutes = this.host.settings().intervalMinutes;
    if (!account || minutes === 0 || this.disposed) return;
    if (this.wakefulness.asleep(this.host.now())) {
      this.asleep = true;
      return;
    }
    // Signed out, another account, or disposed since the turn began: it stops at its next step
    // (the restart that followed has scheduled what comes next, and a sign-out's files stay forgotten).
    const { signal } = this.controller;
    const left = () => signal.aborted || signal !== this.controller.signal || this.account() !== account || this.disposed;
    const now = this.host.now();
    const lease = await this.folder.lease(account.url);
    if (left()) return;
    if (!takeOver && lease && lease.window !== this.window && lease.until > now) {
      // Another window polls: look again once its lease would have ended.
      this.schedule(lease.until - now + 1000);
      return;
    }
    const interval = minutes * this.minuteMs;
    await this.folder.writeLease(account.url, { window: this.window, until: now + interval + LEASE_GRACE_MS });
    if (left()) return;
    await new Promise<void>((resolve) => this.host.setTimeout(resolve, LEASE_SETTLE_MS));
    if (left()) return;
    const held = (await this.folder.lease(account.url))?.window === this.window;
    if (left()) return;
    if (!held) {
      this.schedule(interval);
      return;
    }
    // poll() reads the controller's signal before its first await: the one checked here.
    await this.poll(account, interval);
  }

  /**
   * The accounts (one per sign-in) whose order of posts this watcher has checked: the first poll
   * for each after the watcher started (a window opened) or a sign-in asks the service to sort by
   * `updated_at` again; later polls keep the choice the news file holds (see `readChanges`).
   */
  private readonly orderChecked = new WeakSet<WatchedAccount>();

  private async poll(account: WatchedAccount, interval: number): Promise<void> {
    const { signal } = this.controller;
    const before = await this.folder.news(account.url);
    const started = this.host.now();
    let next: NewsFile;
    let wait = interval;
    try {
      const source: ChangesSource = {
        byUpdated: (page) => readPage(page, () => account.changedPostsPage(page, 100, signal)),
        byId: (page) => readPage(page, () => account.postsPage(page, 100, signal)),
        orderRefused: () => account.orderRefused,
      };
      const recheck = !this.orderChecked.has(account);
      const { posts, order, newestPage, beyondBound } = await readChanges(source, { order: before?.order, newestPage: before?.newestPage }, before?.snapshot, recheck);
      this.orderChecked.add(account);
      if (recheck) this.log.info(order === 'updated' ? 'News: the service lists posts latest changed first: a poll reads what changed, old posts too.' : 'News: the service does not list posts latest changed first: a poll reads the newest posts, and sees changes on a post only while it is among them.');
      if (beyondBound) this.log.info(`News: more than ${MAX_CHANGED_PAGES} pages of posts changed since the last poll; the older changes are not news.`);
      const { snapshot, news } = compare(before?.snapshot, posts, this.me(account.url), started);
      const seq = (before?.seq ?? 0) + (news.length > 0 ? 1 : 0);
      this.failures = 0;
      const told = (await this.folder.notified(account.url)) ?? 0;
      next = { snapshot, order, newestPage, items: heldNews(before?.items ?? [], news, seq, NEWS_KEPT, told), seq, polledAt: this.host.now(), nextAt: this.host.now() + wait };
      if (news.length > 0) this.log.info(`News: ${news.length} post(s) with news (${news.map((item) => `#${item.id} ${item.changes.join('+')}`).join(', ')}).`);
    } catch (error) {
      if (signal.aborted || this.disposed) return;
      this.failures += 1;
      wait = Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(this.failures, 6));
      if (isApiError(error, 'rateLimited') && error.retryAfterSeconds !== undefined) wait = Math.max(wait, error.retryAfterSeconds * 1000);
      const problem = errorText(error);
      this.log.info(`News: the poll failed (${problem}); the next one in ${Math.round(wait / 1000)} s.`);
      next = { items: [], seq: 0, polledAt: 0, ...before, problem, nextAt: this.host.now() + wait };
    }
    if (signal.aborted || this.disposed) return;
    await this.folder.writeNews(account.url, next);
    await this.folder.writeLease(account.url, { window: this.window, until: this.host.now() + wait + LEASE_GRACE_MS });
    await this.reload();
    this.schedule(wait);
  }

  /** Reads the account's files again (written here or in another window), and tells what is new. */
  private async reload(): Promise<void> {
    const url = this.account()?.url;
    if (!url) return;
    const [file, seen] = await Promise.all([this.folder.news(url), this.folder.seen(url)]);
    if (this.account()?.url !== url) return;
    this.file = file && Array.isArray(file.items) ? file : undefined;
    this.seenMarks = seen;
    this.changed.fire();
    await this.notify();
  }

  /**
   * One notification for the polls not told yet, in the focused window only: the first window
   * to be focused after a poll tells it, and writes so, and no other window tells it again.
   */
  private async notify(): Promise<void> {
    const url = this.account()?.url;
    const file = this.file;
    if (!url || !file || !this.host.focused()) return;
    const told = await this.folder.notified(url);
    // Signed out or switched meanwhile: nothing is told of it, nor written (a sign-out forgets its files).
    if (this.account()?.url !== url) return;
    if (told !== undefined && file.seq <= told) return;
    await this.folder.writeNotified(url, file.seq);
    // Never told before (installed, signed in): what is there already is not news.
    if (told === undefined) return;
    const scope = this.host.settings().notify;
    const items = file.items.filter((item) => item.seq > told && wanted(item, scope));
    if (items.length === 0 || this.shownFor === `${url}#${file.seq}`) return;
    this.shownFor = `${url}#${file.seq}`;
    // Not awaited: the choice comes whenever it comes, and the poll goes on.
    void this.show(items);
  }

  private async show(items: readonly HeldNews[]): Promise<void> {
    const open = l10n.t('Open');
    const showAll = l10n.t('Show');
    const one = items.length === 1 ? items[0] : undefined;
    const choice = one ? await this.ui.info(describeOne(one), open, showAll) : await this.ui.info(describeMany(items), showAll);
    if (choice === open && one) await this.host.run('helpdesk.openPost', one.id);
    if (choice === showAll) await this.host.run('helpdesk.showNews');
  }
}

function titleOf(item: HeldNews): string {
  return `"${labelText(item.title, 60) || l10n.t('(no title)')}" (#${item.id})`;
}

/** What the poll that told it found. */
const latestOf = (item: HeldNews) => item.latest ?? item.changes;

function describeOne(item: HeldNews): string {
  const title = titleOf(item);
  const changes = latestOf(item);
  if (changes.includes('assigned')) return changes.includes('new') ? l10n.t('A new post is assigned to you: {0}.', title) : l10n.t('Assigned to you: {0}.', title);
  if (changes.includes('commented')) return l10n.t('New comments on {0}.', title);
  if (changes.includes('closed')) return l10n.t('Closed: {0}.', title);
  if (changes.includes('reopened')) return l10n.t('Reopened: {0}.', title);
  return l10n.t('New post: {0}.', title);
}

function describeMany(items: readonly HeldNews[]): string {
  const titles = items.slice(0, 3).map(titleOf).join(', ') + (items.length > 3 ? ', …' : '');
  if (items.every((item) => latestOf(item).includes('assigned'))) return l10n.t('{0} posts assigned to you: {1}.', items.length, titles);
  return l10n.t('{0} helpdesk posts have news: {1}.', items.length, titles);
}
