import vscode = require('vscode');
import { Disposable } from '../lifecycle';
import { isApiError, readPage, type Page, type Post } from '../api';
import type { Log } from '../log';
import type { Notifier } from '../ui/notifier';
import { errorText } from '../ui/errorText';
import { contentText } from '../text/contentText';
import { labelText } from '../text/serverText';
import { compare, heldNews, isSeen, newsPosts, wanted, type HeldNews, type SeenMarks } from './news';
import type { WhoIAm } from '../accounts/identity';
import { MAX_CHANGED_PAGES, readChanges, type ChangesSource } from './changedPosts';
import { NEWS_KEPT, type Lease, type NewsFile, type NewsFolder, type StillWanted } from './newsFiles';
import { MAX_INTERVAL_MINUTES } from './newsShapes';
import { tellNews } from './newsNotice';
import { Wakefulness } from './wakefulness';
import { editorHost, type WatcherHost } from './watcherHost';

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
/** After failures, the wait grows to at most this (or the interval, where it is longer). */
const MAX_BACKOFF_MS = 60 * 60_000;
/** A longer Retry-After is waited for this long: the service asked for a pause, not for silence for good. */
export const MAX_RETRY_AFTER_MS = 60 * 60_000;
/** The longest wait there is (the longest interval and a minute): no timer is set longer, no time read from a file is trusted further ahead. */
const MAX_WAIT_MS = (MAX_INTERVAL_MINUTES + 1) * 60_000;
/** A lease lasts the wait to the next poll and this much more, so that a late poll does not lose it. */
const LEASE_GRACE_MS = 60_000;
/** Between taking a lease (or claiming a notification) and trusting it: another window that took it at the same moment has written by then. */
const SETTLE_MS = 300;
/** A window's claim to tell a poll's news stands this long: then another window may tell it. */
const CLAIM_MS = 10_000;
/** A poll this close to its time is due (timers fire a little early or late). */
const DUE_SLACK_MS = 1000;

/**
 * Reads what changed in the helpdesk every `helpdesk.watch.intervalMinutes`, in one window per
 * account (the one holding the lease, see NewsFolder); every window shows the news from the
 * files that window writes, and one notification at most is shown for a poll, in the focused
 * window. The pace of an account's shared poll is the smallest interval of the windows awake on
 * it: a window whose interval is shorter than the lease holder's takes the lease over. Nothing is
 * read while signed out, or while the window has been unfocused for an hour; failures wait longer
 * each time, whichever window polls (a 429 as long as it asks, up to an hour), and are said in
 * the status bar's tooltip, never in a notification. Every wait is capped, and every turn checks
 * from the files that a poll is due. Disposed, or signed out, it leaves no timer and writes
 * nothing more.
 */
export class NewsWatcher extends Disposable {
  private readonly changed = this.register(new vscode.EventEmitter<void>());
  /** Fires when the news or what was seen changed (the rows' marks and Changed Only), or another account is watched. */
  readonly onDidChange = this.changed.event;
  private readonly statusChanged = this.register(new vscode.EventEmitter<void>());
  /** Fires when the news or the state of polling may have changed (when it was read, when next, why it failed): the status bar's count and tooltip. */
  readonly onDidChangeStatus = this.statusChanged.event;
  /** The news and the seen marks as last told (see `reload`): a poll that found nothing new repaints nothing. */
  private toldNews = '';
  private timer: unknown;
  private readonly wakefulness: Wakefulness;
  private readonly host: WatcherHost;
  private asleep = false;
  /** The turn under way (lease, read, files): one at a time, whoever asks (the timer, a restart, Check Now). */
  private turn: Promise<void> | undefined;
  /** How many turns were taken (a restart schedules none once one was asked for since). */
  private turns = 0;
  private controller = new AbortController();
  private disposed = false;
  private started = false;
  /** The files of the account shown, as last read. */
  private file: NewsFile | undefined;
  private seenMarks: SeenMarks = new Map();
  private shownFor: string | undefined;
  /** A notification being decided in this window (one at a time). */
  private notifying = false;
  /** When another window's claim to tell stands: the look again at it (see `notify`). */
  private recheck: unknown;
  /** The account polled for; another one (or none) starts again. */
  private bound: WatchedAccount | undefined;

  constructor(
    private readonly account: () => WatchedAccount | undefined,
    onDidChangeAccount: vscode.Event<unknown>,
    private readonly me: (accountUrl: string) => WhoIAm,
    private readonly folder: NewsFolder,
    /** This window's name in leases. */
    private readonly window: string,
    private readonly ui: Notifier,
    private readonly log: Log,
    /** The length of a minute of `helpdesk.watch.intervalMinutes` (ms); tests shorten it to watch many polls. */
    private readonly minuteMs = 60_000,
    host?: WatcherHost,
  ) {
    super();
    this.host = host ?? editorHost();
    this.wakefulness = new Wakefulness(this.host.focused(), this.host.now(), ASLEEP_AFTER_MS);
    this.register(onDidChangeAccount(() => this.started && this.account() !== this.bound && this.restart()));
    this.register(folder.onDidChange(() => this.started && void this.reload()));
    this.register(this.host.onDidChangeInterval(() => this.started && this.restart()));
    this.register(
      this.host.onDidChangeFocus((focused) => {
        this.wakefulness.focusChanged(focused, this.host.now());
        if (!focused) return;
        if (!this.started) return;
        void this.tell();
        if (this.asleep) {
          this.asleep = false;
          this.schedule(0, this.controller.signal);
        }
      }),
    );
  }

  /** Begins: reads the files, and polls when due. Until then it reads and writes nothing (the root starts it after the window has). */
  start(): void {
    if (this.started || this.disposed) return;
    this.started = true;
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
    return { polledAt: this.file?.polledAt || undefined, nextAt: this.file && this.dueAt(this.file), problem: this.file?.problem, off };
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
    await this.folder.writeSeen(url, marks, () => this.account()?.url === url);
    this.seenMarks = marks;
    this.tellChanged();
    return changed;
  }

  /**
   * Polls now, whether or not a poll is due, if this window may (it holds or takes the lease).
   * `takeOver` (Check for News Now, asked for in this window) takes the lease from another
   * window: the person asked here, and the other window leaves the reading to this one from its
   * next turn. The read starts after the call (after a turn under way, if any);
   * resolves once done.
   */
  async pollNow({ takeOver = false } = {}): Promise<void> {
    this.start();
    this.host.clearTimeout(this.timer);
    await this.tick(takeOver);
  }

  override dispose(): void {
    this.disposed = true;
    this.host.clearTimeout(this.timer);
    this.timer = undefined;
    this.host.clearTimeout(this.recheck);
    this.controller.abort();
    super.dispose();
    // Best effort, as the window closes: once the turn under way has stopped (it writes no lease
    // once disposed), a lease of this window's ends now, so another window reads from its next turn.
    if (this.bound) this.release(this.bound.url);
  }

  /** Gives up this window's lease on an account it no longer polls, after the turn under way. */
  private release(url: string): void {
    void (this.turn ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => this.folder.releaseLease(url, this.window))
      .catch(() => undefined);
  }

  /** Another account, signed out, or another interval: starts again from the files. */
  private restart(): void {
    // An account signed out of has its files forgotten at the session's side (see extension.ts), in every window.
    const before = this.bound;
    this.bound = this.account();
    this.host.clearTimeout(this.timer);
    this.timer = undefined;
    this.host.clearTimeout(this.recheck);
    this.controller.abort();
    this.controller = new AbortController();
    if (before && before !== this.bound) this.release(before.url);
    this.file = undefined;
    this.seenMarks = new Map();
    // Signed in again after a sign-out, the polls are numbered from the start again: seq 1 is news not told yet.
    this.shownFor = undefined;
    this.toldNews = '';
    this.changed.fire();
    this.statusChanged.fire();
    if (!this.account() || this.host.settings().intervalMinutes === 0) return;
    const turns = this.turns;
    const { signal } = this.controller;
    void this.reload()
      .catch((error: unknown) => this.log.error('News: reading the files failed', error))
      .then(async () => {
        // After a turn under way (of the account before, aborted), unless one was taken since (Check Now): it schedules the next itself.
        await this.turn?.catch(() => undefined);
        if (this.turns === turns) this.schedule(this.dueIn(), signal);
      });
  }

  /** How long until a poll is due, from the files: at once when none was made or its time has passed. */
  private dueIn(): number {
    return Math.max(0, (this.file ? this.dueAt(this.file) : 0) - this.host.now());
  }

  /**
   * When the next poll is due: when the last one said, or sooner when this window's interval is
   * shorter (counted from that poll). After a failure, when it said: it waits longer on purpose.
   * Times from the file are bounded by now: a last try later than now (the clock was set back)
   * makes a poll due at once, and nothing is due further ahead than the longest wait.
   */
  private dueAt(file: NewsFile): number {
    const now = this.host.now();
    if (file.triedAt > now + DUE_SLACK_MS) return now;
    const minutes = this.host.settings().intervalMinutes;
    const due =
      file.problem || !file.polledAt || minutes === 0 ? file.nextAt : Math.min(file.nextAt, file.polledAt + minutes * this.minuteMs);
    return Math.min(due, now + MAX_WAIT_MS);
  }

  /** The next turn in `ms` (capped: Node fires a longer timer at once), unless the turn's account was left since. */
  private schedule(ms: number, signal: AbortSignal): void {
    if (this.disposed || signal.aborted) return;
    this.host.clearTimeout(this.timer);
    const delay = Math.min(Math.max(0, Number.isFinite(ms) ? ms : MAX_WAIT_MS), MAX_WAIT_MS);
    this.timer = this.host.setTimeout(
      () => void this.tick(false, true).catch((error: unknown) => this.log.error('News: a turn failed', error)),
      delay,
    );
  }

  /** A turn after the one under way, if any (which may be for an account since left). */
  private tick(takeOver = false, timed = false): Promise<void> {
    const after = this.turn?.catch(() => undefined) ?? Promise.resolve();
    const turn: Promise<void> = after
      .then(() => this.takeTurn(takeOver, timed))
      .finally(() => {
        if (this.turn === turn) this.turn = undefined;
      });
    this.turn = turn;
    return turn;
  }

  /** Whether a lease read from the file holds at `now`: not ended, and not ending further ahead than its holder's pace allows (else written with another clock, or not by this extension). */
  private holds(lease: Lease, now: number): boolean {
    return (
      lease.until > now && lease.until <= now + Math.max(lease.minutes * this.minuteMs, MAX_BACKOFF_MS) + LEASE_GRACE_MS + DUE_SLACK_MS
    );
  }

  /** A turn: `timed` (the timer's) polls only when a poll is due; `takeOver` (Check Now) whoever holds the lease. */
  private async takeTurn(takeOver: boolean, timed: boolean): Promise<void> {
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
    const wanted = () => !left();
    const interval = minutes * this.minuteMs;
    if (!takeOver) {
      // Due? Another window may have polled since this timer was set.
      const file = timed ? await this.folder.news(account.url) : undefined;
      if (left()) return;
      const now = this.host.now();
      if (file && this.dueAt(file) - now > DUE_SLACK_MS) {
        this.schedule(this.dueAt(file) - now, signal);
        return;
      }
      const lease = await this.folder.lease(account.url);
      if (left()) return;
      if (lease && lease.window !== this.window && this.holds(lease, now) && lease.minutes <= minutes) {
        // Another window polls, as often or more: look again once it should have (its lease then runs on).
        this.schedule(lease.until - now + DUE_SLACK_MS, signal);
        return;
      }
    }
    await this.folder.writeLease(account.url, { window: this.window, until: this.host.now() + interval + LEASE_GRACE_MS, minutes }, wanted);
    if (left()) return;
    await new Promise<void>((resolve) => this.host.setTimeout(resolve, SETTLE_MS));
    if (left()) return;
    const held = (await this.folder.lease(account.url))?.window === this.window;
    if (left()) return;
    if (!held) {
      this.schedule(interval, signal);
      return;
    }
    // poll() reads the controller's signal before its first await: the one checked here.
    await this.poll(account, interval, minutes, wanted);
  }

  /**
   * The accounts (one per sign-in) whose order of posts this watcher has checked: the first poll
   * for each after the watcher started (a window opened) or a sign-in asks the service to sort by
   * `updated_at` again; later polls keep the choice the news file holds (see `readChanges`).
   */
  private readonly orderChecked = new WeakSet<WatchedAccount>();

  private async poll(account: WatchedAccount, interval: number, minutes: number, wanted: StillWanted): Promise<void> {
    const { signal } = this.controller;
    const before = await this.folder.news(account.url);
    const started = this.host.now();
    let next: NewsFile;
    let wait = interval;
    try {
      const source: ChangesSource = {
        byUpdated: (page) => readPage(page, () => account.changedPostsPage(page, 100, signal)),
        byId: (page, perPage) => readPage(page, () => account.postsPage(page, perPage ?? 100, signal)),
        orderRefused: () => account.orderRefused,
      };
      // Before the first request: a comment filed from here while the list is read may be in it or not (see compare).
      const ownAtRead = this.me(account.url).comments;
      const recheck = !this.orderChecked.has(account);
      const { posts, order, newestPage, beyondBound } = await readChanges(
        source,
        { order: before?.order, newestPage: before?.newestPage },
        before?.snapshot,
        recheck,
      );
      this.orderChecked.add(account);
      if (recheck)
        this.log.info(
          order === 'updated'
            ? 'News: the service lists posts latest changed first: a poll reads what changed, old posts too.'
            : 'News: the service does not list posts latest changed first: a poll reads the newest posts, and sees changes on a post only while it is among them.',
        );
      if (beyondBound)
        this.log.info(`News: more than ${MAX_CHANGED_PAGES} pages of posts changed since the last poll; the older changes are not news.`);
      const { snapshot, news } = compare(before?.snapshot, posts, this.me(account.url), started, untitledName, ownAtRead);
      const [notified, seen] = await Promise.all([this.folder.notified(account.url), this.folder.seen(account.url)]);
      // The notified file lost (of another shape) after a baseline: what the last poll found counts as told, so that this poll's news is.
      if (!notified && before?.snapshot && wanted()) await this.folder.writeNotified(account.url, { seq: before.seq }, wanted);
      const told = notified?.seq ?? before?.seq ?? 0;
      // Numbered above every poll told or seen (files that say more than the news file, whatever wrote them), so that its news is neither.
      const seq = Math.max(before?.seq ?? 0, told, ...seen.values()) + (news.length > 0 ? 1 : 0);
      const now = this.host.now();
      next = {
        snapshot,
        order,
        newestPage,
        items: heldNews(before?.items ?? [], news, seq, NEWS_KEPT, told),
        seq,
        polledAt: now,
        triedAt: now,
        failures: 0,
        nextAt: now + wait,
      };
      if (news.length > 0)
        this.log.info(
          `News: ${news.length} post(s) with news (${news.map((item) => `#${item.id} ${item.changes.join('+')}`).join(', ')}).`,
        );
    } catch (error) {
      if (signal.aborted || this.disposed) return;
      // Counted in the file: the backoff grows on in whichever window polls next.
      const failures = Math.min((before?.failures ?? 0) + 1, 64);
      wait = Math.min(Math.max(interval, MAX_BACKOFF_MS), interval * 2 ** Math.min(failures, 6));
      if (isApiError(error, 'rateLimited') && error.retryAfterSeconds !== undefined)
        wait = Math.max(wait, Math.min(error.retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS));
      const problem = errorText(error);
      this.log.info(`News: the poll failed (${problem}); the next one in ${Math.round(wait / 1000)} s.`);
      const now = this.host.now();
      next = { items: [], seq: 0, polledAt: 0, ...before, problem, failures, triedAt: now, nextAt: now + wait };
    }
    if (!wanted()) return;
    const written = await this.folder.writeNews(account.url, next, wanted);
    if (!written || !wanted()) return;
    // A baseline tells nothing, whether or not a window is focused: later news counts from it.
    if (!before?.snapshot && next.snapshot) await this.folder.writeNotified(account.url, { seq: written.seq }, wanted);
    await this.folder.writeLease(account.url, { window: this.window, until: this.host.now() + wait + LEASE_GRACE_MS, minutes }, wanted);
    if (!wanted()) return;
    await this.reload();
    this.schedule(wait, signal);
  }

  /** Reads the account's files again (written here or in another window), and tells what is new. */
  private async reload(): Promise<void> {
    const url = this.account()?.url;
    if (!url) return;
    const [file, seen] = await Promise.all([this.folder.news(url), this.folder.seen(url)]);
    if (this.account()?.url !== url) return;
    this.file = file;
    this.seenMarks = seen;
    this.tellChanged();
    await this.tell();
  }

  /**
   * Tells what is new, if this window is the one to (see `notify`). A failure to (the notified
   * file could not be written) is logged: the poll that read the news goes on at its pace, and
   * the news is told once a later turn can.
   */
  private tell(): Promise<void> {
    return this.notify().catch((error: unknown) => this.log.error('News: telling the news failed', error));
  }

  /** Tells of the news only where it (or what was seen of it) changed; of the state of polling always. */
  private tellChanged(): void {
    // Linear in the news kept (at most NEWS_KEPT items) and the marks: once a poll.
    const news = JSON.stringify([this.file?.items ?? [], [...this.seenMarks]]);
    if (news !== this.toldNews) {
      this.toldNews = news;
      this.changed.fire();
    }
    this.statusChanged.fire();
  }

  /**
   * One notification for the polls not told yet, in the focused window only: the first window
   * to be focused after a poll claims it in the notified file; once its claim has stood a moment
   * (two windows that claim at once: the last to write wins) it writes the poll as told, then
   * tells it. A claim another window made in the last seconds is left to that window; one left
   * behind (that window switched or closed meanwhile) ends, and the news is told on a later
   * turn, never counted as told without being told.
   */
  private async notify(): Promise<void> {
    const url = this.account()?.url;
    const file = this.file;
    if (!url || !file || !this.host.focused() || this.notifying) return;
    this.notifying = true;
    try {
      const here = () => this.account()?.url === url && !this.disposed;
      const told = await this.folder.notified(url);
      // Signed out or switched meanwhile: nothing is told of it, nor written (a sign-out forgets its files).
      if (!here()) return;
      if (told !== undefined && file.seq <= told.seq) return;
      // Never told before (a file of another shape, or deleted): what is there already is not news.
      if (told === undefined) {
        await this.folder.writeNotified(url, { seq: file.seq }, here);
        return;
      }
      const now = this.host.now();
      const other = told.claim;
      if (other && other.window !== this.window && other.seq >= file.seq && other.at <= now + DUE_SLACK_MS && now - other.at < CLAIM_MS) {
        // Left to that window; looked at again soon: it may lose the focus (to this window) before it tells, and withdraw.
        this.lookAgain(Math.min(2 * SETTLE_MS, Math.max(1, other.at + CLAIM_MS - now)));
        return;
      }
      const claim = { seq: file.seq, window: this.window, at: now };
      if (!(await this.folder.writeNotified(url, { seq: told.seq, claim }, here))) return;
      await new Promise<void>((resolve) => this.host.setTimeout(resolve, SETTLE_MS));
      const after = await this.folder.notified(url);
      if (!here() || after?.seq !== told.seq || after.claim?.window !== this.window || after.claim.seq !== file.seq) return;
      // The person moved to another window meanwhile: shown here, it would wait unseen behind it. The
      // claim is withdrawn, so that the window focused now (which left the telling to this one) tells it.
      if (!this.host.focused()) {
        await this.folder.writeNotified(url, { seq: told.seq }, here);
        return;
      }
      if (!(await this.folder.writeNotified(url, { seq: file.seq }, here))) return;
      const scope = this.host.settings().notify;
      const items = file.items.filter((item) => item.seq > told.seq && wanted(item, scope));
      if (items.length === 0 || this.shownFor === `${url}#${file.seq}`) return;
      this.shownFor = `${url}#${file.seq}`;
      // Not awaited: the choice comes whenever it comes, and the poll goes on.
      void tellNews(items, url, { ui: this.ui, host: this.host, accountUrl: () => this.account()?.url });
    } finally {
      this.notifying = false;
    }
    // Files read again meanwhile (a poll's news came while this one was decided): tell theirs too.
    if (this.file && this.file !== file) await this.notify();
  }

  /** `notify` again in `ms`, once (a later ask replaces an earlier one). */
  private lookAgain(ms: number): void {
    this.host.clearTimeout(this.recheck);
    this.recheck = this.host.setTimeout(() => {
      this.recheck = undefined;
      if (!this.disposed) void this.tell();
    }, ms);
  }
}

/** An untitled post's news names it by the start of its content's text (an e-mail's, not its markup), as its row does. */
export function untitledName(post: Post): string {
  return labelText(contentText(post, 1000).text, 60);
}
