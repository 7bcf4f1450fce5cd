/**
 * What activation does not need, loaded at its first use: `load` runs once, and every caller
 * meanwhile waits for that one load. A load that fails is tried again at the next use (the
 * caller that met the failure reports it, as any failure of its own). With esbuild's one bundle,
 * `load` is a dynamic `import()` of a module: it is in the bundle, but evaluated at that call.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (loading) return loading;
    const made = (loading = Promise.resolve().then(load));
    made.catch(() => {
      if (loading === made) loading = undefined;
    });
    return made;
  };
}

/**
 * A value made at its first use, and kept. For what costs a start time to make and may never be
 * needed: a regular expression of Unicode classes (`\p{L}`) takes V8 some tenths of a millisecond
 * to build, at the module's evaluation if it stands at its top level.
 */
export function madeOnFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
