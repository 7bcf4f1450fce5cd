/**
 * How the stand-in behaves where the spec is silent and the service notes say only "likely" or
 * leave a question open. `likely` takes the side the notes find likely; `contrary` takes the
 * other side of each; `sparse` lists less than it stores, refuses what no public document
 * shows (`order=…asc`, a page past the end, updating a post), names no author of a post
 * created through the API and sends no `use_html`, so that the extension is shown to be right on
 * every side (`contrary` sends `use_html` as a string). All keep
 * what the notes call confirmed (bare records, plain arrays, `"ok"` for a delete by default).
 */
export interface Profile {
  name: ProfileName;
  /** `order=field` / `order=field.desc` sorts lists; otherwise lists come in id order. */
  honoursOrder: boolean;
  /** `order=field.asc` (a form no public document shows) is sorted ascending, or refused with 422. */
  ascOrder: 'sorts' | 'refused';
  /** A page past the end (page > 1) is an empty array, or a 404. */
  pastEnd: 'empty' | 'notFound';
  /** `GET /app/deals.json?client_id=N` lists only that client's deals; otherwise every deal. */
  filtersDealsByClient: boolean;
  /** The most records a page holds, whatever `per_page` asks. */
  maxPerPage: number;
  /** `GET /app.json` lists comments (posts with a `post_id`) beside the other posts. */
  listsComments: boolean;
  /** `GET /app.json` lists posts filed with only a `kind` (a bug report: no `task_kind`). */
  listsKindOnly: boolean;
  /**
   * What the lists of posts hand back of `content`: all of it, none (the field left out), the
   * first 250 characters (an abstract), the first 65,535, or all but a trailing "Sent from …"
   * line (stripped as a signature). `GET /app/posts/<id>.json` always answers it whole.
   */
  listContent: ListContent;
  /** Every post needs a title, comments too. */
  titleRequired: boolean;
  /** What a delete answers: the JSON string "ok", or an empty 200. */
  deleteAnswer: 'ok' | 'empty';
  /**
   * A post created through the API names its author, the token's user (`user_id`, and their login
   * as `nick`); otherwise both are left as sent (the extension sends neither: null).
   */
  authorOnCreate: boolean;
  /**
   * `PUT /app/posts/<id>.json` (not in the spec): accepted with only the fields sent changed and
   * the whole record answered, as updates of other records are (confirmed); or refused as a
   * service without it might: 404, 405, a 422, or a 200 whose body is an error.
   */
  postUpdates: PostUpdates;
  /**
   * How answers carry a post's `use_html` (service notes: not shown): as stored (a boolean), as a
   * string (`"1"`/`"0"` for posts of even id, `"true"`/`"false"` for odd), or not at all. The
   * content is the same either way: without the field, an e-mail's HTML is still HTML.
   */
  useHtml: UseHtml;
}

export type UseHtml = 'boolean' | 'string' | 'absent';

export type PostUpdates = 'accepted' | 'notFound' | 'methodNotAllowed' | 'refused422' | 'errorBody200';

export type ListContent = 'full' | 'omitted' | 'abstract' | 'cut' | 'unsigned';

export type ProfileName = 'likely' | 'contrary' | 'sparse';

const LIKELY: Profile = {
  name: 'likely',
  honoursOrder: true,
  ascOrder: 'sorts',
  pastEnd: 'empty',
  filtersDealsByClient: true,
  maxPerPage: 100,
  listsComments: false,
  listsKindOnly: true,
  listContent: 'full',
  titleRequired: false,
  deleteAnswer: 'ok',
  authorOnCreate: true,
  postUpdates: 'accepted',
  useHtml: 'boolean',
};

export const PROFILES: Record<ProfileName, Profile> = {
  likely: LIKELY,
  contrary: {
    ...LIKELY,
    name: 'contrary',
    honoursOrder: false,
    filtersDealsByClient: false,
    maxPerPage: 25,
    listsComments: true,
    titleRequired: true,
    deleteAnswer: 'empty',
    useHtml: 'string',
  },
  sparse: {
    ...LIKELY,
    name: 'sparse',
    ascOrder: 'refused',
    pastEnd: 'notFound',
    listsKindOnly: false,
    listContent: 'abstract',
    authorOnCreate: false,
    postUpdates: 'notFound',
    useHtml: 'absent',
  },
};

export function isProfileName(value: string): value is ProfileName {
  return Object.hasOwn(PROFILES, value);
}

/** The most characters of `content` the `abstract` and `cut` lists hand back. */
export const LIST_CONTENT_CUT = { abstract: 250, cut: 65_535 } as const;

/** A post's `content` as a list of this profile hands it back (see `Profile.listContent`); undefined: left out. */
export function listedContent(content: unknown, how: ListContent): unknown {
  if (how === 'full' || typeof content !== 'string') return how === 'omitted' ? undefined : content;
  if (how === 'omitted') return undefined;
  if (how === 'unsigned') {
    const text = content.trimEnd();
    const lastLine = text.lastIndexOf('\n') + 1;
    return text.slice(lastLine).startsWith('Sent from ') ? text.slice(0, lastLine).trimEnd() : content;
  }
  return content.slice(0, LIST_CONTENT_CUT[how]);
}

/** A post as an answer of this profile carries it: `use_html` as it is, as a string, or left out (see `Profile.useHtml`). */
export function presentedPost<T extends { id: number; use_html?: unknown }>(post: T, how: UseHtml): T {
  if (how === 'boolean' || !Object.hasOwn(post, 'use_html')) return post;
  const [yes, no] = post.id % 2 === 0 ? ['1', '0'] : ['true', 'false'];
  // The other fields stay in their order (answers list them in the spec's).
  const presented: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(post)) {
    if (field !== 'use_html') presented[field] = value;
    else if (how === 'string') presented[field] = value === true ? yes : value === false ? no : value;
  }
  return presented as T;
}
