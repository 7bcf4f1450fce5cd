import type { CallOptions, Query, Transport } from './http';
import { pageQuery, pages, type Page, type PageParams, type PagingStop } from './paging';
import { asPage, asRecord, assertId, type Shape } from './parse';

/**
 * The calls the service offers for most records: list, get, create, update, at
 * `/app/{plural}.json` and `/app/{plural}/{id}.json`, with bodies wrapped in the shape's key.
 */
export class Resource<T extends { id: number }, Create, Update, Filters extends Query = Record<never, never>> {
  private readonly readPage: (json: unknown) => Page<T>;
  private readonly readRecord: (json: unknown) => T;

  constructor(
    protected readonly http: Transport,
    private readonly shape: Shape,
  ) {
    this.readPage = asPage<T>(shape);
    this.readRecord = asRecord<T>(shape);
  }

  /** One page of records. */
  list(params: PageParams & Filters = {} as PageParams & Filters, call?: CallOptions): Promise<Page<T>> {
    const { page, perPage, order, ...filters } = params;
    return this.http.get(`/app/${this.shape.plural}.json`, { ...filters, ...pageQuery({ page, perPage, order }) }, this.readPage, call);
  }

  /** Every page of records, one array per page (see `pages`). */
  pages(
    params: PageParams & Filters = {} as PageParams & Filters,
    call?: CallOptions,
    onStop?: (why: PagingStop) => void,
  ): AsyncGenerator<T[], void, undefined> {
    return pages((p, c) => this.list({ ...params, ...p }, c), params, call, onStop);
  }

  // async, so that a bad id rejects the promise rather than throwing at the call.
  async get(id: number, call?: CallOptions): Promise<T> {
    return this.http.get(this.itemPath(id), {}, this.readRecord, call);
  }

  create(fields: Create, call?: CallOptions): Promise<T> {
    return this.http.post(`/app/${this.shape.plural}.json`, { [this.shape.key]: fields }, this.readRecord, call);
  }

  /** Sends only the fields given; the service answers the whole updated record. */
  async update(id: number, changes: Update, call?: CallOptions): Promise<T> {
    return this.http.put(this.itemPath(id), { [this.shape.key]: changes }, this.readRecord, call);
  }

  private itemPath(id: number): string {
    return `/app/${this.shape.plural}/${assertId(id, `${this.shape.key} id`)}.json`;
  }
}
