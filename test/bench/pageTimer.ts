// Timing inside the workbench page, with the page's own clock: from a person's input (a mouse
// press, or Enter) to the frame that first shows an element, as a MutationObserver sees it
// inserted or shown and a task after the next animation frame finds it painted. Optionally also
// to the first frame that shows it with no progress bar running in its view (see `settled`).
// The page's code is plain JavaScript in strings: the project's TypeScript has no DOM types.
import type { Page } from 'playwright-core';
import { limitMs } from '../limits';

export interface TimerSpec {
  /** The input that starts the clock: the first mouse press, or the first Enter key, after arming. */
  start: 'mousedown' | 'Enter';
  /** Elements (CSS) of which one must show text matching `text` (a RegExp source, on the trimmed text). */
  selector: string;
  text: string;
  /**
   * Also time the first frame where the element shows and its view (the `.pane` holding it, or
   * the side bar's title) has no progress bar running: rows painted from what an extension knew
   * are replaced by the service's answer under the view's progress bar. Where the rows come only
   * with the answer, both times are the same frame.
   */
  settled?: boolean;
  /**
   * Also look in the page's frames (a webview's page: its frame within the webview's frame), each
   * shown and of the workbench's origin: a mutation there is no mutation of the workbench's
   * document, so every animation frame looks, and one that finds the element is the frame that
   * paints it. Only for `shown` (not with `settled`).
   */
  inFrames?: boolean;
}

export interface Timed {
  /** The input → the element painted (ms). */
  shown: number;
  /** The input → the element painted with no progress bar running in its view (ms); NaN unless `settled` was asked. */
  settled: number;
}

const ARM = `(spec) => {
  window.__benchTimer?.stop();
  const state = {};
  const pattern = new RegExp(spec.text);
  const type = spec.start === 'Enter' ? 'keydown' : 'mousedown';
  const onInput = (event) => {
    if (state.start !== undefined || (spec.start === 'Enter' && event.key !== 'Enter')) return;
    state.start = event.timeStamp;
  };
  // The document, and those of its frames that show (a frame of another origin cannot be read: said if it would have been).
  const documents = (doc, found) => {
    found.push(doc);
    for (const frame of doc.querySelectorAll('iframe')) {
      if (frame.getClientRects().length === 0 || frame.ownerDocument.defaultView.getComputedStyle(frame).visibility === 'hidden') continue;
      let inner = null;
      try { inner = frame.contentDocument; } catch {}
      if (inner) documents(inner, found);
      else state.unreadable = frame.src.slice(0, 120);
    }
    return found;
  };
  const shown = () => (spec.inFrames ? documents(document, []) : [document])
    .flatMap((doc) => [...doc.querySelectorAll(spec.selector)])
    .find((element) => element.getClientRects().length > 0 && pattern.test((element.textContent ?? '').trim()));
  // A progress bar running (not done, not hidden) in the element's pane, or in none (the side bar's title).
  const busy = (element) => {
    const pane = element.closest('.pane');
    return [...document.querySelectorAll('.part.sidebar .monaco-progress-container.active')]
      .some((bar) => !bar.classList.contains('done') && bar.getClientRects().length > 0 && (bar.closest('.pane') ?? pane) === pane);
  };
  // After the frame that paints it.
  const stamp = (key) => requestAnimationFrame(() => setTimeout(() => (state[key] = performance.now()), 0));
  let seen = false;
  const observer = new MutationObserver(() => {
    if (state.start === undefined) return;
    const element = shown();
    if (!element) return;
    if (!seen) {
      seen = true;
      stamp('end');
    }
    if (spec.settled && busy(element)) return;
    observer.disconnect();
    if (spec.settled) stamp('settled');
  });
  let stopped = false;
  const look = () => {
    if (stopped || seen) return;
    if (state.start !== undefined && shown()) {
      seen = true;
      setTimeout(() => (state.end = performance.now()), 0);
      return;
    }
    requestAnimationFrame(look);
  };
  if (spec.inFrames) requestAnimationFrame(look);
  document.addEventListener(type, onInput, true);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['style', 'class'] });
  window.__benchTimer = { state, settled: spec.settled === true, stop() { stopped = true; observer.disconnect(); document.removeEventListener(type, onInput, true); } };
}`;

const QUIET = `({ quietMs, maxMs }) => new Promise((resolve) => {
  const began = performance.now();
  let last = began;
  const observer = new PerformanceObserver(() => (last = performance.now()));
  observer.observe({ type: 'longtask' });
  const check = () => {
    const now = performance.now();
    if (now - last >= quietMs || now - began >= maxMs) {
      observer.disconnect();
      resolve();
    } else setTimeout(check, 100);
  };
  check();
})`;

const call = (source: string, arg: unknown) => `(${source})(${JSON.stringify(arg)})`;

/** Arms the timer; the next matching input starts it. */
export async function armTimer(page: Page, spec: TimerSpec): Promise<void> {
  await page.evaluate(call(ARM, spec));
}

/** Waits for the armed timer to stop (both times, if `settled` was asked); resolves with the times in ms. */
export async function readTimes(page: Page, what: string, timeoutMs = limitMs('uiReaction')): Promise<Timed> {
  const done =
    'window.__benchTimer?.state.end !== undefined && (!window.__benchTimer.settled || window.__benchTimer.state.settled !== undefined)';
  try {
    await page.waitForFunction(done, undefined, { timeout: timeoutMs, polling: 50 });
  } catch {
    const state = await page.evaluate<{ start?: number; end?: number; unreadable?: string }>('window.__benchTimer?.state ?? {}');
    const why =
      state.start === undefined
        ? 'the input never came'
        : state.end === undefined
          ? `after the input${state.unreadable ? `; a frame of another origin could not be read: ${state.unreadable}` : ''}`
          : "shown, but its view's progress bar never stopped";
    throw new Error(`${what}: not seen within ${timeoutMs / 1000} s (${why}).`);
  }
  return await page.evaluate<Timed>(
    '(() => { const t = window.__benchTimer; t.stop(); const { start, end, settled } = t.state; return { shown: end - start, settled: settled === undefined ? NaN : settled - start }; })()',
  );
}

/** The input → the element painted (ms). */
export async function readTimer(page: Page, what: string, timeoutMs = limitMs('uiReaction')): Promise<number> {
  return (await readTimes(page, what, timeoutMs)).shown;
}

/** Resolves once the page has had no long task for `quietMs` (or after `maxMs`). */
export async function pageQuiet(page: Page, quietMs = 1000, maxMs = 10_000): Promise<void> {
  await page.evaluate(call(QUIET, { quietMs, maxMs }));
}
