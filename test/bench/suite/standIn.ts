// A stand-in server the launcher started, reached through its /__standin/ control endpoints.
import type { RecordedRequest } from '../../server';

export class StandInControl {
  constructor(readonly url: string) {}

  async requests(): Promise<RecordedRequest[]> {
    return (await (await this.call('GET', 'requests')).json()) as RecordedRequest[];
  }

  async clearRequests(): Promise<void> {
    await this.call('DELETE', 'requests');
  }

  async clearFaults(): Promise<void> {
    await this.call('DELETE', 'faults');
  }

  private async call(method: string, what: string, body?: unknown): Promise<Response> {
    const response = await fetch(`${this.url}/__standin/${what}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(`${method} /__standin/${what}: ${response.status} ${await response.text()}`);
    return response;
  }
}
