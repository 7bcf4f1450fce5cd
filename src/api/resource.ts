import type { CallOptions, Query, Transport } from './http';
import { pageQuery, pages, type Page, type PageParams } from './paging';
import { asPage, asRecord, assertId } from './parse';

/**
 * The calls the service offers for most records: list, get, create, update, at
 * `/app/{plural}.json` and `/app/{plural}/{id}.json`, with bodies wrapped in `{wrapper}`.
 */
export class Resource<T extends { id: number }, Create, Update, Filters extends Query = Record<never, never>> {
  constructor(
    protected readonly http: Transport,
    private readonly plural: string,
    private readonly wrapper: string,
  ) {}

  /** One page of records. */
  list(params: PageParams & Filters = {} as PageParams & Filters, call?: CallOptions): Promise<Page<T>> {
    const { page, perPage, order, ...filters } = params;
    return this.http.get(`/app/${this.plural}.json`, { ...filters, ...pageQuery({ page, perPage, order }) }, asPage<T>, call);
  }

  /** Every page of records, one array per page. */
  pages(params: PageParams & Filters = {} as PageParams & Filters, call?: CallOptions): AsyncGenerator<T[], void, undefined> {
    return pages((p, c) => this.list({ ...params, ...p }, c), params, call);
  }

  // async, so that a bad id rejects the promise rather than throwing at the call.
  async get(id: number, call?: CallOptions): Promise<T> {
    return this.http.get(this.itemPath(id), {}, asRecord<T>, call);
  }

  create(fields: Create, call?: CallOptions): Promise<T> {
    return this.http.post(`/app/${this.plural}.json`, { [this.wrapper]: fields }, asRecord<T>, call);
  }

  /** Sends only the fields given; the service answers the whole updated record. */
  async update(id: number, changes: Update, call?: CallOptions): Promise<T> {
    return this.http.put(this.itemPath(id), { [this.wrapper]: changes }, asRecord<T>, call);
  }

  private itemPath(id: number): string {
    return `/app/${this.plural}/${assertId(id, `${this.wrapper} id`)}.json`;
  }
}
