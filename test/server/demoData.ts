/**
 * The demo data set: deterministic (fixed tables and a seeded PRNG, dates relative to DEMO_NOW);
 * posts and comments numbered in the order they were written.
 * 20 clients, 65 posts (60 of every kind and task_kind, their e-mails in their senders' HTML, and
 * 5 hostile e-mails from strangers) with 18 comments (3 of them HTML replies that came by mail),
 * 12 deals, 10 contacts and 3 contact lists.
 */
import { DEMO_COMMENTS, DEMO_HOSTILE, DEMO_MAIL_COMMENTS, DEMO_POSTS } from './demoPosts';
import { Random } from './random';
import type { ClientRecord, PostRecord } from './records';
import type { Store } from './store';
import { formatTime } from './time';

/** The demo's "now": 2025-05-19T09:00:00.000+01:00. */
export const DEMO_NOW = Date.UTC(2025, 4, 19, 8, 0, 0);
const DAY = 24 * 60 * 60 * 1000;
const MINUTE = 60 * 1000;

/** name, city, country, contact first name, contact last name, domain */
const CLIENTS: [string, string, string, string, string, string][] = [
  ['Northwind Traders', 'Seattle', 'US', 'Laura', 'Callahan', 'northwind.example'],
  ['Bluewater Logistics', 'Rotterdam', 'NL', 'Pieter', 'de Vries', 'bluewater.example'],
  ['Kestrel Analytics', 'Edinburgh', 'GB', 'Fiona', 'McLeod', 'kestrel.example'],
  ['Harbor & Finch Legal', 'Boston', 'US', 'Daniel', 'Okafor', 'harborfinch.example'],
  ['Alder Creek Dental', 'Portland', 'US', 'Megan', 'Price', 'aldercreek.example'],
  ['Brightline Media', 'Dublin', 'IE', 'Ciara', 'Byrne', 'brightline.example'],
  ['Cobalt Robotics', 'Munich', 'DE', 'Jonas', 'Becker', 'cobalt-robotics.example'],
  ['Dunmore Bakery', 'Cork', 'IE', 'Aoife', 'Walsh', 'dunmore.example'],
  ['Evergreen Property Group', 'Vancouver', 'CA', 'Raj', 'Patel', 'evergreen-pg.example'],
  ['Falcon Freight', 'Gdańsk', 'PL', 'Tomasz', 'Nowak', 'falconfreight.example'],
  ['Granite Peak Outfitters', 'Denver', 'US', 'Hannah', 'Morales', 'granitepeak.example'],
  ['Helix Biolabs', 'Basel', 'CH', 'Lukas', 'Meier', 'helixbio.example'],
  ['Ironbridge Consulting', 'Manchester', 'GB', 'Oliver', 'Hughes', 'ironbridge.example'],
  ['Juniper Health Clinic', 'Austin', 'US', 'Sofia', 'Ramirez', 'juniperhealth.example'],
  ['Lakeside Hotel', 'Lucerne', 'CH', 'Anna', 'Keller', 'lakeside-hotel.example'],
  ['Meridian Insurance', 'Warsaw', 'PL', 'Katarzyna', 'Wiśniewska', 'meridian-ins.example'],
  ['Nova Solar', 'Lisbon', 'PT', 'João', 'Ferreira', 'novasolar.example'],
  ['Orchid Florists', 'Vienna', 'AT', 'Eva', 'Gruber', 'orchid-florists.example'],
  ['Pinecrest Academy', 'Toronto', 'CA', 'Marcus', 'Lee', 'pinecrest.example'],
  ['Quarry Lane Architects', 'Copenhagen', 'DK', 'Freja', 'Nielsen', 'quarrylane.example'],
];

const CALLING_CODES: Record<string, string> = {
  US: '1',
  CA: '1',
  NL: '31',
  GB: '44',
  IE: '353',
  DE: '49',
  PL: '48',
  CH: '41',
  PT: '351',
  AT: '43',
  DK: '45',
};
const STREETS = [
  'Market Street',
  'Harbour Road',
  'Station Square',
  'Mill Lane',
  'Park Avenue',
  'King Street',
  'Riverside Drive',
  'Church Street',
];
const SEGMENTS = ['Enterprise', 'Mid-market', 'Small business'];

/** name, index of the client (null: none), price, description */
const DEALS: [string, number | null, number, string][] = [
  ['Annual support plan', 0, 4800, 'Premium support, 12 months'],
  ['Helpdesk rollout, 6 locations', 13, 18500, 'Licences and onboarding for the clinic network'],
  ['CRM migration', 6, 7200, 'Import from the old CRM, two training sessions'],
  ['Enterprise licence renewal', 11, 26000, '24 months, annual billing'],
  ['Driver app integration', 9, 9400, 'Custom integration with the fleet app'],
  ['Portal redesign', 5, 12800, 'Client portal with their branding'],
  ['Seat expansion to 40 users', 2, 6000, 'From 25 to 40 seats'],
  ['Guest request desk', 14, 5400, 'Helpdesk for three hotels'],
  ['Quarterly reporting package', 15, 3600, 'Monthly closed-ticket reports per category'],
  ['Solar installer starter pack', null, 1900, 'Lead from the webinar; client record not created yet'],
  ['Training day', null, 1200, 'On-site training, half day'],
  ['Referral partner bundle', null, 8800, 'Partner firm in Glasgow, 40 users'],
];

/** first name, last name, position-like description */
const CONTACTS: [string, string, string][] = [
  ['Marta', 'Kowalczyk', 'Head of customer support'],
  ['Liam', "O'Connor", 'IT administrator'],
  ['Nora', 'Schmidt', 'Finance'],
  ['Ethan', 'Brooks', 'Operations manager'],
  ['Ines', 'Almeida', 'Procurement'],
  ['Yuki', 'Tanaka', 'Product owner'],
  ['Samuel', 'Adeyemi', 'CTO'],
  ['Clara', 'Rossi', 'Office manager'],
  ['Mateo', 'García', 'Sales lead'],
  ['Elin', 'Lindqvist', 'Compliance officer'],
];

const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function seedClients(store: Store, prefix: string, random: Random): ClientRecord[] {
  return CLIENTS.map(([name, city, country, first, last, domain], i) => {
    const at = formatTime(DEMO_NOW - (70 - i * 2) * DAY + random.int(0, 600) * MINUTE);
    const code = CALLING_CODES[country]!;
    return store.insert(prefix, 'clients', {
      name,
      shortcut: name.split(' ')[0],
      city,
      country,
      street: STREETS[i % STREETS.length],
      street_no: String(random.int(1, 180)),
      post_code: String(random.int(10000, 98999)),
      first_name: first,
      last_name: last,
      email: `${slug(first)}.${slug(last)}@${domain}`,
      phone: `+${code} 555 ${String(random.int(1000, 9999))}`,
      www: `https://www.${domain}`,
      kind: i % 7 === 6 ? 'seller' : 'buyer',
      company: true,
      tax_no: i % 3 === 0 ? `${country}${String(random.int(100000000, 999999999))}` : null,
      note: i % 4 === 1 ? 'Prefers email over phone.' : null,
      responsible_id: (i % 3) + 1,
      external_id: i % 5 === 0 ? `CRM-${1000 + i}` : null,
      external_ids: i % 3 === 0 ? { github: `${slug(name)}/app`, billing: `B-${2000 + i}` } : null,
      string1: SEGMENTS[i % SEGMENTS.length],
      integer1: random.int(5, 250),
      checkbox1: i % 2 === 0,
      date1: formatTime(DEMO_NOW + random.int(30, 300) * DAY).slice(0, 10),
      created_at: at,
      updated_at: at,
    });
  });
}

/**
 * The users the demo posts name as authors (`user_id`, `nick`) and, by id, as the person assigned
 * (`responsible_id` 1–3). The first is the stand-in's own user, the token's (`owner`, the first
 * user of a fresh store); the others are colleagues with no token.
 */
export const DEMO_USERS = [
  { id: 1, nick: 'owner' },
  { id: 2, nick: 'anna' },
  { id: 3, nick: 'ben' },
] as const;

type PostValues = Parameters<Store['insert']>[2] & { created_at: string };

/** A record to insert once the records it names are in: its time, and its values given the posts inserted so far. */
interface Pending {
  at: number;
  values: (posts: PostRecord[], hostile: PostRecord[]) => PostValues;
  /** Where the inserted record is kept for the records after it to name. */
  keep?: { list: 'posts' | 'hostile'; index: number };
}

/** A reply that came in by mail, as a comment: HTML, from the parent's sender. */
function mailComment(parent: PostRecord, content: string, at: string): PostValues {
  return {
    post_id: parent.id,
    task_kind: 'comment',
    content,
    use_html: true,
    email: parent.email,
    nick: parent.nick,
    responsible_id: parent.responsible_id,
    created_at: at,
    updated_at: at,
  };
}

/**
 * Posts and comments, numbered in the order they were written, as a service numbers them: the
 * hostile e-mails (demoPosts.ts) among the oldest, unassigned and from no client, at fixed times
 * (the PRNG's draws stay the other posts'); a comment after its post.
 */
function seedPosts(store: Store, prefix: string, random: Random, clients: ClientRecord[]): void {
  const pending: Pending[] = [];
  DEMO_HOSTILE.forEach(({ title, content, from, comment }, i) => {
    const at = DEMO_NOW - 42 * DAY + (i * 3 + 1) * 60 * MINUTE;
    pending.push({
      at,
      keep: { list: 'hostile', index: i },
      values: () => {
        const time = formatTime(at);
        return {
          title,
          content,
          task_kind: 'email',
          use_html: true,
          email: from.email,
          nick: from.nick,
          status_id: 1,
          created_at: time,
          updated_at: time,
        };
      },
    });
    if (comment) pending.push({ at: at + 2 * DAY, values: (_, hostile) => mailComment(hostile[i]!, comment, formatTime(at + 2 * DAY)) });
  });
  const spacing = (42 * DAY) / DEMO_POSTS.length;
  let teamPosts = 0;
  const times = DEMO_POSTS.map(({ from, ...post }, i) => {
    const at = DEMO_NOW - 42 * DAY + Math.round(i * spacing) + random.int(0, 120) * MINUTE;
    // An e-mail is its sender's; the other posts' clients are spread by their place.
    const client = from
      ? clients.find((c) => c.name === from)!
      : i % 6 === 5 || post.kind === 'private'
        ? null
        : clients[(i * 7) % clients.length]!;
    const fromOutside = post.task_kind === 'email' || post.task_kind === 'chat' || post.task_kind === 'help' || post.kind !== null;
    // Written by a user of the account (the team), or by someone outside it (a client, by email or chat).
    const author = fromOutside ? undefined : DEMO_USERS[teamPosts++ % DEMO_USERS.length]!;
    const time = formatTime(at);
    const values: PostValues = {
      ...post,
      client_id: client?.id ?? null,
      responsible_id: i % 4 === 3 ? null : (i % 3) + 1,
      email: fromOutside && client ? client.email : null,
      user_id: author?.id ?? null,
      nick: author?.nick ?? (fromOutside && client ? client.first_name : null),
      closed: i % 5 === 3 || post.kind === 'praise',
      private: post.kind === 'private',
      unread: i >= DEMO_POSTS.length - 6,
      status_id: i % 7 === 6 ? null : (i % 3) + 1,
      scheduled_at: post.task_kind === 'phone' || post.task_kind === 'task' ? formatTime(DEMO_NOW + (i % 9) * DAY) : null,
      created_at: time,
      updated_at: time,
    };
    pending.push({ at, keep: { list: 'posts', index: i }, values: () => values });
    return at;
  });
  DEMO_COMMENTS.forEach(([parentIndex, content], i) => {
    const at = times[parentIndex]! + (i + 1) * 97 * MINUTE;
    pending.push({
      at,
      values: (posts) => {
        const parent = posts[parentIndex]!;
        const time = formatTime(at);
        return {
          post_id: parent.id,
          task_kind: 'comment',
          content,
          responsible_id: parent.responsible_id,
          created_at: time,
          updated_at: time,
        };
      },
    });
  });
  DEMO_MAIL_COMMENTS.forEach(([parentIndex, content], i) => {
    const at = times[parentIndex]! + (i + 2) * 211 * MINUTE;
    pending.push({ at, values: (posts) => mailComment(posts[parentIndex]!, content, formatTime(at)) });
  });
  // Sorted by time (a stable sort: ties keep the order above); a comment is always after its post.
  pending.sort((a, b) => a.at - b.at);
  const kept = { posts: [] as PostRecord[], hostile: [] as PostRecord[] };
  for (const { values, keep } of pending) {
    const record = store.insert(prefix, 'posts', values(kept.posts, kept.hostile));
    if (keep) kept[keep.list][keep.index] = record;
  }
}

/** Fills the account with the demo data set (the account should be empty). */
export function seedDemo(store: Store, prefix: string): void {
  const random = new Random(20250519);
  store.batch(() => {
    const clients = seedClients(store, prefix, random);
    seedPosts(store, prefix, random, clients);
    DEALS.forEach(([name, clientIndex, price, description], i) => {
      const client = clientIndex === null ? null : clients[clientIndex]!;
      const at = formatTime(DEMO_NOW - (36 - i * 3) * DAY + random.int(0, 300) * MINUTE);
      store.insert(prefix, 'deals', {
        name,
        description,
        price,
        client_id: client?.id ?? null,
        external_ids: i % 4 === 0 ? { github: `acme/custom-work#${40 + i}` } : null,
        url: i % 3 === 0 ? `https://projects.example/deals/${1000 + i}` : null,
        status_id: (i % 3) + 1,
        created_at: at,
        updated_at: at,
      });
    });
    CONTACTS.forEach(([first, last, description], i) => {
      const at = formatTime(DEMO_NOW - (50 - i * 4) * DAY + random.int(0, 300) * MINUTE);
      store.insert(prefix, 'contacts', {
        name: `${first} ${last}`,
        first_name: first,
        last_name: last,
        description,
        email: `${slug(first)}.${slug(last)}@${CLIENTS[(i * 3) % CLIENTS.length]![5]}`,
        phone: `+44 20 7946 ${String(100 + i * 37).padStart(4, '0')}`,
        responsible_id: (i % 3) + 1,
        created_at: at,
        updated_at: at,
      });
    });
    ['Newsletter', 'Beta testers', 'Key accounts'].forEach((name, i) => {
      const at = formatTime(DEMO_NOW - (30 - i * 7) * DAY);
      store.insert(prefix, 'contact_lists', { name, created_at: at, updated_at: at });
    });
  });
}
