import { parseAccountUrl, webLink, type WebResource } from './address';
import { Transport, type CallOptions, type TransportOptions } from './http';
import { PostsApi } from './posts';
import { Resource } from './resource';
import { asPage } from './parse';
import { SHAPES, type Client, type ClientChanges, type ClientInput, type Deal, type DealInput, type NewDeal, type Status } from './types';

const readStatuses = asPage<Status>(SHAPES.status);

export type HelpdeskClientOptions = TransportOptions;

/** Client list filters (service notes); `external_id` matches the client's external ID. */
export type ClientFilters = { name?: string; email?: string; shortcut?: string; tax_no?: string; external_id?: string };
export type DealFilters = { client_id?: number };

/** The whole API of one account, with one token. */
export class HelpdeskClient {
  readonly accountUrl: string;
  readonly clients: Resource<Client, ClientInput, ClientChanges, ClientFilters>;
  readonly posts: PostsApi;
  readonly deals: Resource<Deal, NewDeal, DealInput, DealFilters>;
  private readonly http: Transport;

  /** Throws `AccountUrlError` when the address is not usable. */
  constructor(options: HelpdeskClientOptions) {
    if (!options.token.trim()) throw new Error('An API token is required.');
    this.accountUrl = parseAccountUrl(options.accountUrl);
    this.http = new Transport({ ...options, accountUrl: this.accountUrl });
    this.clients = new Resource(this.http, SHAPES.client);
    this.posts = new PostsApi(this.http);
    this.deals = new Resource(this.http, SHAPES.deal);
  }

  /** The account's statuses of one kind of record (`GET /app/statuses.json?kind=post`). */
  async statuses(kind: 'post' | 'client' | 'deal', call?: CallOptions): Promise<Status[]> {
    return (await this.http.get('/app/statuses.json', { kind }, readStatuses, call)).items;
  }

  /** A record's page in the web app. */
  link(resource: WebResource, id: number): string {
    return webLink(this.accountUrl, resource, id);
  }
}
