import type { CallOptions, Transport } from './http';
import { pageQuery, pages, type PageParams } from './paging';
import { asList, asRecord, assertId } from './parse';
import type { NewComment, NewErrorReport, NewTask, Post } from './types';

/** Helpdesk posts: tasks, error reports and comments are all posts, created at one endpoint. */
export class PostsApi {
  constructor(private readonly http: Transport) {}

  /** One page of the helpdesk's posts (`GET /app.json`). */
  listHelpdesk(params: PageParams = {}, call?: CallOptions): Promise<Post[]> {
    return this.http.get('/app.json', pageQuery(params), asList<Post>, call);
  }

  helpdeskPages(params: PageParams = {}, call?: CallOptions): AsyncGenerator<Post[], void, undefined> {
    return pages((p, c) => this.listHelpdesk({ ...params, ...p }, c), params, call);
  }

  /** One page of tasks (`GET /app/tasks.json`; not in the spec, confirmed in the service notes). */
  listTasks(params: PageParams = {}, call?: CallOptions): Promise<Post[]> {
    return this.http.get('/app/tasks.json', pageQuery(params), asList<Post>, call);
  }

  async get(id: number, call?: CallOptions): Promise<Post> {
    return this.http.get(`/app/posts/${assertId(id, 'post id')}.json`, {}, asRecord<Post>, call);
  }

  createTask(task: NewTask, call?: CallOptions): Promise<Post> {
    return this.create({ ...task }, call);
  }

  /** A post of kind `error`: what Report Bug files. */
  reportError(report: NewErrorReport, call?: CallOptions): Promise<Post> {
    return this.create({ ...report, kind: 'error' }, call);
  }

  /** A comment on the task named by `postId`: a post with `post_id` and `task_kind: "comment"`. */
  async addComment(postId: number, comment: NewComment, call?: CallOptions): Promise<Post> {
    return this.create({ ...comment, post_id: assertId(postId, 'post id'), task_kind: 'comment' }, call);
  }

  private create(post: Record<string, unknown>, call?: CallOptions): Promise<Post> {
    return this.http.post('/app/posts.json', { post }, asRecord<Post>, call);
  }
}
