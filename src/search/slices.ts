// Long work of a tool call done in slices, the event loop free between them: whatever a call is
// given (a long list, large posts), the extension host is never held for long at once.

/** The longest slice of synchronous work, in milliseconds. */
const SLICE_MS = 10;

/**
 * A pause to await between units of work: it lets the event loop run once the current slice has
 * lasted SLICE_MS, and costs nothing before.
 */
export function slicer(): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < SLICE_MS) return undefined;
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        since = performance.now();
        resolve();
      }),
    );
  };
}
