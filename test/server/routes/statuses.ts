/**
 * Statuses (service notes, confirmed by the vendor's plugin): `GET /app/statuses.json`, filter
 * `kind`, answers an array of `{id, code, name, kind}`. The stand-in's are fixed, the same for
 * every account; `status_id` on posts and deals points here.
 */
import { json } from '../http';
import type { Handler } from './common';

export const STATUSES = [
  { id: 1, code: 'new', name: 'New', kind: 'post' },
  { id: 2, code: 'in_progress', name: 'In progress', kind: 'post' },
  { id: 3, code: 'waiting', name: 'Waiting for reply', kind: 'post' },
  { id: 4, code: 'offer', name: 'Offer sent', kind: 'deal' },
  { id: 5, code: 'won', name: 'Won', kind: 'deal' },
  { id: 6, code: 'lost', name: 'Lost', kind: 'deal' },
] as const;

export const statuses = {
  list: ((context) =>
    json(
      200,
      STATUSES.filter((status) => !context.query.kind || status.kind === context.query.kind),
    )) satisfies Handler,
};
