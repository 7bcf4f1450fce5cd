// Timing inside the workbench page, with the page's own clock: from a person's input (a mouse
// press, or Enter) to the frame that first shows an element, as a MutationObserver sees it
// inserted or shown and a task after the next animation frame finds it painted.
// The page's code is plain JavaScript in strings: the project's TypeScript has no DOM types.
import type { Page } from 'playwright-core';

export interface TimerSpec {
  /** The input that starts the clock: the first mouse press, or the first Enter key, after arming. */
  start: 'mousedown' | 'Enter';
  /** Elements (CSS) of which one must show text matching `text` (a RegExp source, on the trimmed text). */
  selector: string;
  text: string;
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
  const shown = () => [...document.querySelectorAll(spec.selector)]
    .some((element) => element.getClientRects().length > 0 && pattern.test((element.textContent ?? '').trim()));
  let seen = false;
  const observer = new MutationObserver(() => {
    if (state.start === undefined || seen || !shown()) return;
    seen = true;
    observer.disconnect();
    // After the frame that paints it.
    requestAnimationFrame(() => setTimeout(() => (state.end = performance.now()), 0));
  });
  document.addEventListener(type, onInput, true);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['style', 'class'] });
  window.__benchTimer = { state, stop() { observer.disconnect(); document.removeEventListener(type, onInput, true); } };
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

/** Waits for the armed timer to stop; resolves with the time in ms. */
export async function readTimer(page: Page, what: string, timeoutMs = 30_000): Promise<number> {
  try {
    await page.waitForFunction('window.__benchTimer?.state.end !== undefined', undefined, { timeout: timeoutMs, polling: 50 });
  } catch {
    const started = await page.evaluate('window.__benchTimer?.state.start !== undefined');
    throw new Error(`${what}: not seen within ${timeoutMs / 1000} s (${started ? 'after the input' : 'the input never came'}).`);
  }
  return await page.evaluate<number>('(() => { const t = window.__benchTimer; t.stop(); return t.state.end - t.state.start; })()');
}

/** Resolves once the page has had no long task for `quietMs` (or after `maxMs`). */
export async function pageQuiet(page: Page, quietMs = 1000, maxMs = 10_000): Promise<void> {
  await page.evaluate(call(QUIET, { quietMs, maxMs }));
}
