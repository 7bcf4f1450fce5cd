import vscode = require('vscode');
import { isApiError } from '../api';
import type { HelpdeskStore } from '../store/helpdeskStore';
import type { PagedList, PagedListState } from '../store/pagedList';
import { errorText } from '../ui/errorText';
import { LoadMoreNode, MessageNode, type HelpdeskNode } from './nodes';

const { l10n } = vscode;

/**
 * The rows of a paged list: its records, then one row that says what comes next — "Load
 * more…", an error with a retry ("Could not load more" under the rows read when a page after
 * the first failed), or why there is nothing. Nothing while signed out or while the
 * token is rejected, or when the first page failed in a way a welcome view explains.
 */
export async function pagedRows<T extends { id: number }>(
  store: HelpdeskStore,
  name: 'posts' | 'clients',
  list: PagedList<T>,
  usable: boolean,
  rows: (items: readonly T[]) => HelpdeskNode[],
  empty: (items: readonly T[]) => string,
): Promise<HelpdeskNode[]> {
  if (!(await listReady(store, name, usable))) return [];
  const nodes = rows(list.state.items);
  const tail = tailRow(name, list.state, undefined, () => (nodes.length === 0 ? empty(list.state.items) : undefined));
  return tail ? [...nodes, tail] : nodes;
}

/** The view each list fills, whose progress bar shows while last known rows are brought up to date. */
const VIEWS = { posts: 'helpdesk.posts', clients: 'helpdesk.clients' } as const;

/**
 * Whether a list of the store has rows to show: not while the account's token is rejected
 * (`usable` false; signed out, a view shows none). The rows known from the last time show at
 * once, the view's progress bar on until the service's answer replaces them; without them, once
 * the first page was read, unless it failed in a way a welcome view explains.
 */
export async function listReady(store: HelpdeskStore, name: 'posts' | 'clients', usable: boolean): Promise<boolean> {
  if (!usable) return false;
  const list = store[name];
  await store.whenKnown(name);
  if (list.state.lastKnown) {
    // Asked once: a failed answer leaves the rows with a retry row, and is not asked again at each paint.
    if (!list.state.started)
      void vscode.window.withProgress({ location: { viewId: VIEWS[name] } }, () => list.ensureStarted().catch(() => undefined));
    return true;
  }
  await list.ensureStarted();
  const { items, error } = list.state;
  return !(items.length === 0 && welcomeExplains(error));
}

/**
 * The row that ends a list: "Load more…" (or what a load of the view's own says, `busy`), an
 * error with a retry ("Could not load more" where a page after the first failed), or, for a
 * list that shows no row, why (`empty`); undefined when none is due.
 */
export function tailRow(
  name: 'posts' | 'clients',
  state: PagedListState<{ id: number }>,
  busy: string | undefined,
  empty: () => string | undefined,
): HelpdeskNode | undefined {
  const { hasMore, loading, error, errorLoadingMore } = state;
  if (busy !== undefined && error === undefined) return new LoadMoreNode(name, true, busy);
  if (error !== undefined && !loading) {
    const words = errorText(error);
    return retryRow(
      `${name}:error`,
      errorLoadingMore ? l10n.t('Could not load more: {0} Click to retry.', words) : l10n.t('Could not load: {0} Click to retry.', words),
      [name],
    );
  }
  if (hasMore || error !== undefined) return new LoadMoreNode(name, loading);
  const text = empty();
  return text === undefined ? undefined : new MessageNode(`${name}:empty`, text, 'info');
}

/** The failures the welcome views explain (token rejected, service unreachable); others show as a row. */
function welcomeExplains(error: unknown): boolean {
  return (isApiError(error, 'auth') && error.status === 401) || isApiError(error, 'network') || isApiError(error, 'timeout');
}

/** The row that ends a list whose load failed: it says so, and a click loads again (`helpdesk.loadMore` with `args`). */
export function retryRow(id: string, message: string, args: unknown[]): MessageNode {
  return new MessageNode(id, message, 'warning', { command: 'helpdesk.loadMore', title: l10n.t('Retry'), arguments: args });
}
