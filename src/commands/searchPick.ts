// A quick pick that searches a helpdesk list beyond the rows loaded. As the person types, the rows
// loaded are searched at once (no network); once typing pauses, the list is read further, up to
// the bound every search keeps (search/listSearch.ts), the pick busy meanwhile and the results
// shown as each page brings them. Where the bound is met, the last items say how far it looked
// and offer to look further or to open the helpdesk in the browser. Hiding the pick stops every read.
import vscode = require('vscode');
import { readFurther, SEARCH_RECORDS, type ReadEnd, type SearchableList } from '../search/listSearch';
import type { Pause } from '../search/matching';
import { slicer } from '../search/slices';

const { l10n } = vscode;

/** How long typing pauses before a search reads the service: one search per pause, not one per key. */
export const SEARCH_DELAY_MS = 250;

/** An item of the pick: a record to answer (`value`, the record's `key`), or something to do (`run`), or words only. */
export interface PickItem<R> extends vscode.QuickPickItem {
  readonly value?: R;
  /** The record's id: a record is shown once, whatever found it. */
  readonly key?: number;
  /** Accepting it runs this and leaves the pick open. */
  readonly run?: () => void;
}

export interface SearchPickOptions<T extends { id: number } & object, R> {
  readonly title: string;
  readonly placeholder: string;
  /** The views' list (see listSearch.ts for why the views' list). */
  readonly list: SearchableList<T> & { ensureStarted(): Promise<void>; onDidChange(listener: () => void): { dispose(): void } };
  /** Items above the results, whatever is typed. */
  readonly fixed: readonly PickItem<R>[];
  /** The words of what was typed, or the words that say why it is not searched (too long). */
  words(text: string): readonly string[] | string;
  /** Those of `records` the words find, by id (search/matching.ts). */
  matching(records: readonly T[], words: readonly string[], pause: Pause): Promise<Map<number, T>>;
  item(record: T): PickItem<R>;
  /**
   * A record the text names directly (its number): at once where loaded, else read once typing
   * pauses; a text that names one is not searched further than the rows loaded.
   */
  readonly direct?: {
    names(text: string): boolean;
    loaded(text: string): PickItem<R> | undefined;
    fetch(text: string, signal: AbortSignal): Promise<PickItem<R> | undefined> | undefined;
  };
  /** How far a search looked: `count` records, all of them or the first ones. */
  searched(count: number, all: boolean): string;
  /** The helpdesk's web app, where the person may look further. */
  readonly web: string | undefined;
}

interface Search<T extends object, R> {
  readonly text: string;
  readonly words: readonly string[] | string;
  readonly controller: AbortController;
  /** The records found, by id, as they were when checked: a fresher copy in the list is checked again. */
  readonly found: Map<number, T>;
  readonly checked: WeakSet<T>;
  /** Matching runs one at a time, in order. */
  matching: Promise<void>;
  direct: PickItem<R> | undefined;
  end: ReadEnd | undefined;
  reading: boolean;
}

/** The pick; resolves with the value of the item accepted, or undefined when it is hidden. */
export function searchPick<T extends { id: number } & object, R>(options: SearchPickOptions<T, R>): Promise<R | undefined> {
  const { list } = options;
  return new Promise((resolve) => {
    const pick = vscode.window.createQuickPick<PickItem<R>>();
    pick.title = options.title;
    pick.placeholder = options.placeholder;
    pick.matchOnDescription = true;
    // Results arrive while the person moves through them: the list stays where they are.
    pick.keepScrollPosition = true;
    const pause = slicer();
    let most = SEARCH_RECORDS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let answer: R | undefined;
    let firstLoad = true;
    let hidden = false;

    const begin = (text: string): Search<T, R> => {
      current.controller.abort();
      clearTimeout(timer);
      const words = options.words(text);
      const search: Search<T, R> = {
        text,
        words,
        controller: new AbortController(),
        found: new Map(),
        checked: new WeakSet(),
        matching: Promise.resolve(),
        direct: undefined,
        end: undefined,
        reading: false,
      };
      current = search;
      if (typeof words !== 'string') {
        search.direct = options.direct?.loaded(text);
        void catchUp(search);
        if (text.trim() !== '') timer = setTimeout(() => void read(search), SEARCH_DELAY_MS);
      }
      render();
      return search;
    };

    /** Searches the records of the list not searched yet for this text. */
    const catchUp = (search: Search<T, R>): Promise<void> => {
      if (typeof search.words === 'string') return search.matching;
      const words = search.words;
      search.matching = search.matching.then(async () => {
        const fresh = list.state.items.filter((record) => !search.checked.has(record));
        if (fresh.length === 0 || search.controller.signal.aborted) return;
        for (const record of fresh) search.checked.add(record);
        const { signal } = search.controller;
        // A search given up (the person typed on) stops matching at its next pause.
        const found = await options
          .matching(fresh, words, () => (signal.aborted ? Promise.reject(new Error('Search given up')) : pause()))
          .catch(() => undefined);
        if (!found || signal.aborted) return;
        for (const record of found.values()) search.found.set(record.id, record);
        render();
      });
      return search.matching;
    };

    /** Reads the list further for the search, and the record its text names. */
    const read = async (search: Search<T, R>): Promise<void> => {
      const { signal } = search.controller;
      if (signal.aborted) return;
      search.reading = true;
      search.end = undefined;
      render();
      const direct = search.direct ? undefined : options.direct?.fetch(search.text, signal);
      const named = options.direct?.names(search.text) === true;
      const [end] = await Promise.all([
        named ? undefined : readFurther(list, { most, signal, retry: true }),
        direct?.then((item) => {
          if (!signal.aborted) search.direct = item;
        }),
      ]);
      await catchUp(search);
      search.reading = false;
      if (!signal.aborted) search.end = end;
      render();
    };

    const render = () => {
      if (hidden) return;
      const search = current;
      pick.busy = firstLoad || search.reading;
      const searching = search.text.trim() !== '';
      const shown = new Set<number>();
      const once = (item: PickItem<R>) => item.key === undefined || (!shown.has(item.key) && (shown.add(item.key), true));
      const items: PickItem<R>[] = options.fixed.filter(once);
      if (typeof search.words === 'string') {
        items.push({ label: `$(info) ${search.words}`, alwaysShow: true });
      } else {
        if (search.direct && once(search.direct)) items.push({ ...search.direct, alwaysShow: true });
        for (const record of list.state.items) {
          if (search.found.get(record.id) !== record) continue;
          const item = options.item(record);
          // What the search found shows whatever the pick's own filter makes of it (a word in the content).
          if (once(item)) items.push(searching ? { ...item, alwaysShow: true } : item);
        }
        if (searching) items.push(...ending(search, items.length > options.fixed.length));
      }
      pick.items = items;
    };

    /** The last items: how far the search looked, and where the person may look further. */
    const ending = (search: Search<T, R>, anything: boolean): PickItem<R>[] => {
      const count = list.state.items.length;
      const web: PickItem<R>[] = options.web
        ? [{ label: `$(link-external) ${l10n.t('Open the Helpdesk in the Browser')}`, alwaysShow: true, run: () => openWeb(options.web!) }]
        : [];
      const further = () => {
        most = Math.max(most, list.state.items.length + SEARCH_RECORDS);
        void read(search);
      };
      switch (search.end) {
        case 'bound':
          return [
            {
              label: `$(search) ${options.searched(count, false)}`,
              description: l10n.t('Look at {0} more', SEARCH_RECORDS),
              alwaysShow: true,
              run: further,
            },
            ...web,
          ];
        case 'failed':
          return [
            {
              label: `$(warning) ${options.searched(count, false)}`,
              description: l10n.t('Reading more failed. Try again?'),
              alwaysShow: true,
              run: () => void read(search),
            },
            ...web,
          ];
        case 'complete':
          return anything
            ? []
            : [{ label: `$(info) ${options.searched(count, true)}`, description: l10n.t('Nothing found'), alwaysShow: true }, ...web];
        default:
          return [];
      }
    };

    const openWeb = (address: string) => {
      void vscode.env.openExternal(vscode.Uri.parse(address));
      pick.hide();
    };

    let current: Search<T, R> = {
      text: '',
      words: [],
      controller: new AbortController(),
      found: new Map(),
      checked: new WeakSet(),
      matching: Promise.resolve(),
      direct: undefined,
      end: undefined,
      reading: false,
    };
    const listening = list.onDidChange(() => void catchUp(current));
    pick.onDidChangeValue((text) => void begin(text));
    pick.onDidAccept(() => {
      const [chosen] = pick.selectedItems;
      if (chosen?.run) return chosen.run();
      if (chosen?.value === undefined) return;
      answer = chosen.value;
      pick.hide();
    });
    pick.onDidHide(() => {
      hidden = true;
      current.controller.abort();
      clearTimeout(timer);
      listening.dispose();
      resolve(answer);
      pick.dispose();
    });
    begin('');
    pick.show();
    void list.ensureStarted().finally(() => {
      firstLoad = false;
      render();
    });
  });
}
