/**
 * The large-account generator (`seed: {posts: N, clients?: M}`): N top-level posts (no
 * comments) and M clients (default N/50, between 1 and 1,000), deterministic and fast
 * (10,000 posts in well under a second). Posts are one minute apart, ending at DEMO_NOW.
 */
import { DEMO_NOW } from './demoData';
import { POST_KINDS, TASK_KINDS } from './fields';
import { Random } from './random';
import type { Store } from './store';
import { formatTime } from './time';

const TOPICS = [
  'Invoice question',
  'Login problem',
  'Feature request',
  'Data import',
  'Report export',
  'Billing change',
  'API access',
  'Mobile app',
  'Password reset',
  'Integration help',
];
const TOWNS = ['Leeds', 'Lyon', 'Porto', 'Brno', 'Graz', 'Aarhus', 'Utrecht', 'Cork', 'Turin', 'Poznań'];
const MINUTE = 60 * 1000;

export function seedLargeAccount(store: Store, prefix: string, size: { posts: number; clients?: number }): void {
  const postCount = Math.max(0, Math.floor(size.posts));
  const clientCount = Math.max(1, Math.floor(size.clients ?? Math.min(1000, Math.ceil(postCount / 50))));
  const random = new Random(postCount * 31 + clientCount);
  const start = DEMO_NOW - (postCount + clientCount) * MINUTE;
  store.batch(() => {
    const clientIds: number[] = [];
    for (let i = 0; i < clientCount; i++) {
      const n = i + 1;
      const at = formatTime(start + i * MINUTE);
      const client = store.insert(prefix, 'clients', {
        name: `Client ${String(n).padStart(5, '0')} Ltd`,
        email: `contact${n}@client${n}.example`,
        city: TOWNS[i % TOWNS.length],
        external_ids: { generator: `c-${n}` },
        created_at: at,
        updated_at: at,
      });
      clientIds.push(client.id);
    }
    const postsStart = start + clientCount * MINUTE;
    for (let i = 0; i < postCount; i++) {
      const at = formatTime(postsStart + i * MINUTE);
      const isTask = i % 4 !== 3;
      store.insert(prefix, 'posts', {
        title: `${TOPICS[i % TOPICS.length]} #${i + 1}`,
        content: `Generated post ${i + 1} of ${postCount}.`,
        task_kind: isTask ? TASK_KINDS[i % TASK_KINDS.length] : null,
        kind: isTask ? null : POST_KINDS[i % POST_KINDS.length],
        client_id: i % 10 === 9 ? null : clientIds[random.int(0, clientIds.length - 1)],
        responsible_id: random.int(1, 5),
        closed: i % 3 === 0,
        created_at: at,
        updated_at: at,
      });
    }
  });
}
