/**
 * Posts: create (task, post of a kind, or comment), the helpdesk list (`/app.json`), the task
 * list (`/app/tasks.json`), get, and update as the profile says (the spec shows no update or
 * delete of posts).
 */
import { addError, castFields, forbidBlanking, requirePresent } from '../cast';
import { POST_SCHEMA } from '../fields';
import { error, json, notFound, type FieldErrors } from '../http';
import { listedContent, presentedPost } from '../profile';
import type { RecordTypes } from '../records';
import { check, checkExists, find, listHandler, Reply, wrapper, type ApiContext, type Handler } from './common';
import { STATUSES } from './statuses';

type StoredPost = RecordTypes['posts'];

/**
 * A comment is a post with `post_id` = its parent and `task_kind` = comment (sending either
 * makes it one); it needs an existing parent and a content (and a title in the `contrary`
 * profile). Any other post needs a title.
 */
const create: Handler = (context) => {
  const errors: FieldErrors = {};
  const values = castFields(POST_SCHEMA, wrapper(context, 'post'), errors);
  const isComment = values.task_kind === 'comment' || (values.post_id !== undefined && values.post_id !== null);
  if (isComment) {
    requirePresent(values, context.profile.titleRequired ? ['post_id', 'title', 'content'] : ['post_id', 'content'], errors);
    checkExists(context, 'posts', values.post_id, 'post_id', errors);
    values.task_kind = 'comment';
  } else {
    requirePresent(values, ['title'], errors);
  }
  checkExists(context, 'clients', values.client_id, 'client_id', errors);
  check(errors);
  // The token's user is the author, whatever was sent (as a client's creator_id is), unless the profile names none.
  if (context.profile.authorOnCreate) Object.assign(values, { user_id: context.user.id, nick: context.user.login });
  return json(201, presented(context.store.insert(context.account.prefix, 'posts', values), context));
};

/** Fields that would make a post something else (a comment, or another post's): not changed by an update (stand-in's choice). */
const FIXED_ON_UPDATE = ['post_id', 'task_kind'];

/**
 * `PUT /app/posts/<id>.json`, not in the spec: where the profile accepts it, only the fields sent
 * change and the whole record is answered (as updates of other records are, confirmed); a
 * `status_id` must be a post status, and a title may not be blanked. Otherwise refused as the
 * profile says.
 */
const update: Handler = (context) => {
  const how = context.profile.postUpdates;
  if (how === 'notFound') throw new Reply(notFound());
  if (how === 'methodNotAllowed') throw new Reply(error(405, 'Method Not Allowed'));
  const post = find(context, 'posts');
  if (how === 'refused422') throw new Reply(error(422, { base: ['Posts cannot be updated through the API'] }));
  if (how === 'errorBody200') return json(200, { code: 'error', message: 'Posts cannot be updated through the API' });
  const errors: FieldErrors = {};
  const values = castFields(POST_SCHEMA, wrapper(context, 'post'), errors);
  for (const field of FIXED_ON_UPDATE) if (Object.hasOwn(values, field)) addError(errors, field, 'cannot be changed');
  forbidBlanking(values, ['title'], errors);
  checkExists(context, 'clients', values.client_id, 'client_id', errors);
  if (typeof values.status_id === 'number' && !STATUSES.some((status) => status.id === values.status_id && status.kind === 'post'))
    addError(errors, 'status_id', 'must exist');
  check(errors);
  return json(200, presented(context.store.update(context.account.prefix, 'posts', post.id, values)!, context));
};

export const posts = {
  create,
  get: ((context) => json(200, presented(find(context, 'posts'), context))) satisfies Handler,
  update,
  /**
   * Every post that is not a comment (comments too in the `contrary` profile; posts with only a
   * `kind` left out in `sparse`).
   */
  listHelpdesk: listHandler(
    'posts',
    (post, { profile }) => (post.post_id === null ? profile.listsKindOnly || post.task_kind !== null : profile.listsComments),
    listed,
  ),
  /** Posts with a task kind, not comments. */
  listTasks: listHandler('posts', (post) => post.post_id === null && post.task_kind !== null, listed),
};

/** A post as every answer hands it back: `use_html` as the profile sends it. */
function presented(post: StoredPost, { profile }: ApiContext): StoredPost {
  return presentedPost(post, profile.useHtml);
}

/** A post as a list hands it back: its `content` whole, cut or left out, as the profile says. */
function listed(post: StoredPost, context: ApiContext): unknown {
  const { profile } = context;
  if (profile.listContent === 'full') return presented(post, context);
  const { content, ...rest } = presented(post, context);
  const shown = listedContent(content, profile.listContent);
  return shown === undefined ? rest : { ...rest, content: shown };
}
