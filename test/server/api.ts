/**
 * The API: maps method and path to a handler, checks the token and runs the handler.
 * Order: unknown path or method → 404; malformed body → 400; missing/unknown token → 401;
 * then the handler (404 for an unknown id, 422 for invalid fields).
 */
import { error, isObject, notFound, type Answer, type ParsedBody } from './http';
import type { Query } from './listing';
import { createAccount } from './routes/account';
import { clients } from './routes/clients';
import { Reply, type Handler } from './routes/common';
import { contactLists, contacts } from './routes/contacts';
import { deals } from './routes/deals';
import { posts } from './routes/posts';
import { statuses } from './routes/statuses';
import type { Profile } from './profile';
import type { Store } from './store';

interface Operations {
  list?: Handler;
  create?: Handler;
  get?: Handler;
  update?: Handler;
  delete?: Handler;
}

/** `/app/<name>.json` and `/app/<name>/<id>.json`. */
const RESOURCES: Record<string, Operations> = {
  clients,
  posts: { create: posts.create, get: posts.get, update: posts.update },
  tasks: { list: posts.listTasks },
  deals,
  contacts,
  contact_lists: contactLists,
  account: { create: createAccount },
  statuses,
};

const COLLECTION_PATH = /^\/app\/(\w+)\.json$/;
const MEMBER_PATH = /^\/app\/(\w+)\/([^/]+)\.json$/;

/** The handler for a request and the id in its path; undefined → 404. */
export function route(method: string, path: string): { handler: Handler; id: number } | undefined {
  if (path === '/app.json') return method === 'GET' ? { handler: posts.listHelpdesk, id: 0 } : undefined;
  let match = COLLECTION_PATH.exec(path);
  if (match) {
    const operations = Object.hasOwn(RESOURCES, match[1]!) ? RESOURCES[match[1]!]! : {};
    const handler = method === 'GET' ? operations.list : method === 'POST' ? operations.create : undefined;
    return handler && { handler, id: 0 };
  }
  match = MEMBER_PATH.exec(path);
  if (!match || !/^\d{1,15}$/.test(match[2]!)) return undefined;
  const operations = Object.hasOwn(RESOURCES, match[1]!) ? RESOURCES[match[1]!]! : {};
  const handler =
    method === 'GET' ? operations.get : method === 'PUT' ? operations.update : method === 'DELETE' ? operations.delete : undefined;
  return handler && { handler, id: Number(match[2]) };
}

export interface ApiRequest {
  method: string;
  path: string;
  query: Query;
  body: ParsedBody;
  tooLarge: boolean;
}

/** The token from the JSON body (any method), else from the query. */
function tokenOf(request: ApiRequest): string | undefined {
  if (request.body.kind === 'json' && isObject(request.body.value) && typeof request.body.value.api_token === 'string')
    return request.body.value.api_token;
  return request.query.api_token;
}

export function handleApi(store: Store, request: ApiRequest, baseUrl: string, profile: Profile): Answer {
  const found = route(request.method, request.path);
  if (!found) return notFound();
  if (request.tooLarge) return error(413, 'Request body too large');
  if (request.body.kind === 'malformed') return error(400, 'The request body is not valid JSON');
  const body = request.body.kind === 'json' ? request.body.value : {};
  if (!isObject(body)) return error(400, 'The request body must be a JSON object');
  const token = tokenOf(request);
  const session = token ? store.authenticate(token) : undefined;
  if (!session) return error(401, token ? 'Invalid API token' : 'Missing API token (api_token)');
  try {
    return found.handler({ store, ...session, query: request.query, body, id: found.id, baseUrl, profile });
  } catch (thrown) {
    if (thrown instanceof Reply) return thrown.answer;
    throw thrown;
  }
}
