import type { CallOptions, Transport } from './http';
import { pageQuery, type Page, type PageParams } from './paging';
import { asPage, asRecord, assertId } from './parse';
import { SHAPES, type NewComment, type NewErrorReport, type NewTask, type Post, type PostChanges } from './types';

const readPage = asPage<Post>(SHAPES.post);
const readPost = asRecord<Post>(SHAPES.post);

/** Helpdesk posts: tasks, error reports and comments are all posts, created at one endpoint. */
export class PostsApi {
  constructor(private readonly http: Transport) {}

  /** One page of the helpdesk's posts (`GET /app.json`). */
  listHelpdesk(params: PageParams = {}, call?: CallOptions): Promise<Page<Post>> {
    return this.http.get('/app.json', pageQuery(params), readPage, call);
  }

  // async, so that a bad id rejects the promise rather than throwing at the call.
  async get(id: number, call?: CallOptions): Promise<Post> {
    return this.http.get(`/app/posts/${assertId(id, 'post id')}.json`, {}, readPost, call);
  }

  /**
   * Changes a post (`PUT /app/posts/<id>.json`, which the spec does not show): only the fields
   * given are sent, and the service is expected to answer the whole record, as its other updates
   * do. An answer naming another post is refused (`badResponse`). A service without it may
   * answer 404, 405, 422, or a 200 whose body is an error: each is an `ApiError`.
   */
  async update(id: number, changes: PostChanges, call?: CallOptions): Promise<Post> {
    const postId = assertId(id, 'post id');
    const post = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    if (Object.keys(post).length === 0) throw new RangeError('An update of a post needs a field to change.');
    const read = (json: unknown): Post => {
      const answer = readPost(json);
      if (answer.id !== postId) throw new Error(`post ${postId}, got post ${answer.id}`);
      return answer;
    };
    return this.http.put(`/app/posts/${postId}.json`, { post }, read, call);
  }

  createTask(task: NewTask, call?: CallOptions): Promise<Post> {
    return this.create({ ...task }, call);
  }

  /** A post of kind `error`: what Report Bug files. */
  reportError(report: NewErrorReport, call?: CallOptions): Promise<Post> {
    return this.create({ ...report, kind: 'error' }, call);
  }

  /** A comment on the task named by `postId`: a post with `post_id` and `task_kind: "comment"`, and a title, as every public example sends. */
  async addComment(postId: number, comment: NewComment, call?: CallOptions): Promise<Post> {
    return this.create({ ...comment, post_id: assertId(postId, 'post id'), task_kind: 'comment' }, call);
  }

  private create(post: Record<string, unknown>, call?: CallOptions): Promise<Post> {
    return this.http.post('/app/posts.json', { post }, readPost, call);
  }
}
