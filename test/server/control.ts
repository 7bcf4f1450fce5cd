/**
 * Control endpoints under `/__standin/`, for tests running in another process (e.g. inside a
 * VS Code extension host). No token needed; loopback only; never recorded as API requests.
 *   GET    /__standin/requests   the recorded requests
 *   DELETE /__standin/requests   forget them
 *   POST   /__standin/faults     add a fault rule (`path` exact, `pathPattern` a RegExp source)
 *   DELETE /__standin/faults     remove all fault rules
 *   POST   /__standin/release    lets the requests (or answers) a `hold` (`holdAnswer`) rule holds go on: {"released": N}
 *   POST   /__standin/reset      both of the above (and releases what is held)
 *   GET    /__standin/info       {url, prefix} (never the token)
 *   DELETE /__standin/records/<collection>/<id>   a record deleted elsewhere (in the web app),
 *                                 also where the API has no DELETE (posts)
 *   POST   /__standin/records/<collection>        a record made elsewhere (by another user in
 *                                 the web app): any schema field may be given, `user_id` too;
 *                                 answers the record
 *   PATCH  /__standin/records/<collection>/<id>   a record changed elsewhere (a post assigned,
 *                                 closed); answers the record
 */
import { faultFromJson, type FaultRule } from './faults';
import { COLLECTIONS, type CollectionName } from './fields';
import { error, json, notFound, type Answer, type ParsedBody } from './http';

export const CONTROL_PREFIX = '/__standin/';

export interface Controllable {
  readonly url: string;
  readonly prefix: string;
  readonly requests: unknown[];
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  release(): number;
  reset(): void;
  /** Removes a record of the account; false when there is none. */
  removeRecord(collection: CollectionName, id: number): boolean;
  /** Adds a record to the account, as another user would in the web app. */
  insertRecord(collection: CollectionName, values: Record<string, unknown>): unknown;
  /** Changes a record of the account; undefined when there is none. */
  updateRecord(collection: CollectionName, id: number, changes: Record<string, unknown>): unknown;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function handleControl(
  target: Controllable,
  method: string,
  path: string,
  body: ParsedBody,
  remoteAddress: string | undefined,
): Answer {
  if (!LOOPBACK.has(remoteAddress ?? '')) return error(403, 'Control endpoints answer loopback callers only');
  const action = `${method} ${path.slice(CONTROL_PREFIX.length)}`;
  const record = /^(DELETE|PATCH|POST) records\/([a-z_]+)(?:\/(\d+))?$/.exec(action);
  if (record) {
    const [, verb, name, id] = record;
    const collection = name as CollectionName;
    if (!COLLECTIONS.includes(collection)) return error(400, `No collection ${collection}`);
    if (verb === 'DELETE' && id) return target.removeRecord(collection, Number(id)) ? json(200, 'ok') : notFound();
    if (body.kind !== 'json' || !body.value || typeof body.value !== 'object' || Array.isArray(body.value))
      return error(400, 'Send the fields as a JSON object');
    const fields = body.value as Record<string, unknown>;
    if (verb === 'POST' && !id) return json(201, target.insertRecord(collection, fields));
    if (verb === 'PATCH' && id) {
      const updated = target.updateRecord(collection, Number(id), fields);
      return updated === undefined ? notFound() : json(200, updated);
    }
    return notFound();
  }
  switch (action) {
    case 'GET requests':
      return json(200, target.requests);
    case 'DELETE requests':
      target.requests.length = 0;
      return json(200, 'ok');
    case 'POST faults': {
      if (body.kind !== 'json') return error(400, 'Send a fault rule as a JSON object');
      try {
        target.addFault(faultFromJson(body.value));
      } catch (problem) {
        return error(400, (problem as Error).message);
      }
      return json(201, 'ok');
    }
    case 'DELETE faults':
      target.clearFaults();
      return json(200, 'ok');
    case 'POST release':
      return json(200, { released: target.release() });
    case 'POST reset':
      target.reset();
      return json(200, 'ok');
    case 'GET info':
      return json(200, { url: target.url, prefix: target.prefix });
    default:
      return notFound();
  }
}
