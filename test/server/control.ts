/**
 * Control endpoints under `/__standin/`, for tests running in another process (e.g. inside a
 * VS Code extension host). No token needed; loopback only; never recorded as API requests.
 *   GET    /__standin/requests   the recorded requests
 *   DELETE /__standin/requests   forget them
 *   POST   /__standin/faults     add a fault rule (`path` exact, `pathPattern` a RegExp source)
 *   DELETE /__standin/faults     remove all fault rules
 *   POST   /__standin/reset      both of the above
 *   GET    /__standin/info       {url, prefix} (never the token)
 */
import { faultFromJson, type FaultRule } from './faults';
import { error, json, notFound, type Answer, type ParsedBody } from './http';

export const CONTROL_PREFIX = '/__standin/';

export interface Controllable {
  readonly url: string;
  readonly prefix: string;
  readonly requests: unknown[];
  addFault(rule: FaultRule): void;
  clearFaults(): void;
  reset(): void;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export function handleControl(target: Controllable, method: string, path: string, body: ParsedBody, remoteAddress: string | undefined): Answer {
  if (!LOOPBACK.has(remoteAddress ?? '')) return error(403, 'Control endpoints answer loopback callers only');
  const action = `${method} ${path.slice(CONTROL_PREFIX.length)}`;
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
    case 'POST reset':
      target.reset();
      return json(200, 'ok');
    case 'GET info':
      return json(200, { url: target.url, prefix: target.prefix });
    default:
      return notFound();
  }
}
