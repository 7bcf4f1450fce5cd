import vscode = require('vscode');
import { isApiError } from '../api';
import type { Session } from '../auth/session';
import type { PagedList } from '../store/pagedList';
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
  session: Session,
  name: 'posts' | 'clients',
  list: PagedList<T>,
  rows: (items: readonly T[]) => HelpdeskNode[],
  empty: (items: readonly T[]) => string,
  /** A load the view runs of its own (a quick filter filling the screen): what it says; undefined when none. */
  busy: () => string | undefined = () => undefined,
): Promise<HelpdeskNode[]> {
  await session.whenRestored();
  if (!session.credentials || session.state === 'rejected') return [];
  await list.ensureStarted();
  const { items, hasMore, loading, error, errorLoadingMore } = list.state;
  if (items.length === 0 && welcomeExplains(error)) return [];
  const nodes = rows(items);
  const loadingOwn = busy();
  if (loadingOwn !== undefined && error === undefined) nodes.push(new LoadMoreNode(name, true, loadingOwn));
  else if (error !== undefined && !loading) {
    const words = errorText(error);
    nodes.push(retryRow(`${name}:error`, errorLoadingMore ? l10n.t('Could not load more: {0} Click to retry.', words) : l10n.t('Could not load: {0} Click to retry.', words), [name]));
  } else if (hasMore || error !== undefined) nodes.push(new LoadMoreNode(name, loading));
  else if (nodes.length === 0) nodes.push(new MessageNode(`${name}:empty`, empty(items), 'info'));
  return nodes;
}

/** The failures the welcome views explain (token rejected, service unreachable); others show as a row. */
function welcomeExplains(error: unknown): boolean {
  return (isApiError(error, 'auth') && error.status === 401) || isApiError(error, 'network') || isApiError(error, 'timeout');
}

/** The row that ends a list whose load failed: it says so, and a click loads again (`helpdesk.loadMore` with `args`). */
export function retryRow(id: string, message: string, args: unknown[]): MessageNode {
  return new MessageNode(id, message, 'warning', { command: 'helpdesk.loadMore', title: l10n.t('Retry'), arguments: args });
}
