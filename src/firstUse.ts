/**
 * A value made at its first use, and kept. For what costs a start time to make and may never be
 * needed: a regular expression of Unicode classes (`\p{L}`) takes V8 some tenths of a millisecond
 * to build, at the module's evaluation if it stands at its top level.
 */
export function madeOnFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
