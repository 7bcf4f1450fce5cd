import { NOBODY, type WhoIAm } from '../../src/accounts/identity';

/** Who the person is, for a test: user `id` (undefined: not known yet), and the posts given. */
export function whoIs(id: number | undefined, fields: Partial<Omit<WhoIAm, 'me'>> = {}): WhoIAm {
  return { ...NOBODY, me: id === undefined ? undefined : { id, source: 'set' }, ...fields };
}
