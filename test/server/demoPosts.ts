/**
 * Texts of the demo posts and comments: every task_kind five times, every kind three times. The
 * five e-mails are as their mail clients wrote them (demoEmails.ts): four HTML, one plain text.
 */
import {
  deepNesting,
  FORWARD_WITH_IMAGE,
  GMAIL_MESSAGE,
  GMAIL_REPLY_COMMENT,
  HOSTILE_ACTIVE,
  HOSTILE_BROKEN,
  HOSTILE_COMMENT,
  HOSTILE_ENCODED,
  HOSTILE_HIDDEN,
  OUTLOOK_REPLY,
  OUTLOOK_REPLY_COMMENT,
  PLAIN_MESSAGE,
  TEMPLATED_MESSAGE,
} from './demoEmails';
import type { PostKind, TaskKind } from './records';

export interface DemoPost {
  task_kind: Exclude<TaskKind, 'comment'> | null;
  kind: PostKind | null;
  title: string;
  content: string;
  tags?: string;
  /** Set on the e-mails: true for HTML. */
  use_html?: boolean;
  /** Set on the e-mails: the client who wrote it, by name (demoData.ts's CLIENTS), so that its card and its signature agree. */
  from?: string;
}

const fence = (lang: string, code: string) => '```' + lang + '\n' + code + '\n```';

const t = (task_kind: DemoPost['task_kind'], title: string, content: string, tags?: string): DemoPost => ({
  task_kind,
  kind: task_kind === 'error' ? 'error' : null,
  title,
  content,
  ...(tags ? { tags } : {}),
});
const k = (kind: PostKind, title: string, content: string): DemoPost => ({ task_kind: null, kind, title, content });
/** An e-mail from the client `from`: its body as the client's mail program sent it, HTML unless it is plain text. */
const mail = (from: string, title: string, content: string, html: boolean, tags?: string): DemoPost => ({
  ...t('email', title, content, tags),
  use_html: html,
  from,
});

export const DEMO_POSTS: DemoPost[] = [
  t(
    'feedback',
    'Onboarding checklist is great',
    'The new onboarding checklist saved our team a lot of time. Could it also remind us about unfinished steps by email?',
  ),
  mail('Northwind Traders', 'Re: Renewal quote for next year', OUTLOOK_REPLY, true, 'billing'),
  t(
    'task',
    'Prepare onboarding session for Cobalt Robotics',
    'Agenda:\n\n- account setup and users\n- importing clients from the old CRM\n- helpdesk rules and canned answers',
  ),
  t(
    'help',
    'How do I reset two-factor authentication?',
    'I lost my phone and cannot log in any more. Our admin is on holiday until next week.',
  ),
  t('chat', 'Chat: pricing for 25 seats', 'Visitor asked whether the 25-seat plan includes the helpdesk module and phone support.'),
  t(
    'phone',
    'Call back about contract renewal',
    'Asked to be called back on Thursday morning about the renewal terms. Prefers the mobile number.',
  ),
  t(
    'lead',
    'Lead: 120-seat clinic network',
    'Regional clinic network, 6 locations, currently on spreadsheets. Interested in CRM and helpdesk. Budget approved for Q3.',
    'sales',
  ),
  t(
    'error',
    'Crash when saving a client with an empty tax number',
    'Saving a client whose tax number field was cleared fails:\n\n' +
      fence(
        '',
        "TypeError: Cannot read properties of null (reading 'trim')\n    at normalizeTaxNo (src/clients/taxNo.ts:14:22)\n    at saveClient (src/clients/save.ts:48:9)\n    at async handler (src/api/clients.ts:31:5)",
      ) +
      '\n\nHappens every time in Firefox and Chrome.',
    'bug',
  ),
  t('idea', 'Idea: dark mode for the client portal', 'Several of our clients work night shifts and asked for a dark theme in the portal.'),
  t(
    'feedback',
    'Invoice PDF layout',
    'The totals block is hard to read when printed on A5. A bolder font for the grand total would help.',
    'billing',
  ),
  mail('Bluewater Logistics', 'Order #4471 has not arrived', GMAIL_MESSAGE, true),
  t(
    'task',
    'Migrate webhook endpoint to v2',
    'Update the endpoint and verify the signature header before parsing the body:\n\n' +
      fence(
        'ts',
        "const valid = verifySignature(request.headers['x-signature'], rawBody, secret);\nif (!valid) return response.status(401).end();",
      ),
    'api',
  ),
  t(
    'help',
    'API returns 401 after token rotation',
    'We regenerated the API token yesterday and now every call fails:\n\n' +
      fence('sh', 'curl -s \'https://acme.example.com/app/clients.json?api_token=…\'\n# {"code":"error","message":"Invalid API token"}') +
      '\n\nDo old integrations need the new token too?',
    'api',
  ),
  t(
    'chat',
    'Chat: trial extension request',
    'Trial ends tomorrow; they are waiting for sign-off from finance and asked for one more week.',
  ),
  t(
    'phone',
    'Printer integration not working',
    'Receipts do not print since the last update. Model: Star TSP143. Walked them through reinstalling the driver, no luck.',
  ),
  t(
    'lead',
    'Lead from webinar: Pinecrest Academy',
    'Attended the helpdesk webinar, wants a demo for the admissions office (about 15 users).',
    'sales',
  ),
  t(
    'error',
    'Export to CSV produces broken characters',
    'Accented names come out garbled, e.g. `Wiśniewska` becomes `WiÅ›niewska`. Looks like the file is read as Latin-1 instead of UTF-8.',
    'bug',
  ),
  t('idea', 'Idea: Kanban view for tasks', 'A board with one column per status would make our weekly planning much faster.'),
  t('feedback', 'Mobile app feels slow on Android', 'Scrolling the task list stutters on a Pixel 5. The desktop version is fine.'),
  mail('Quarry Lane Architects', 'Change of billing address', PLAIN_MESSAGE, false, 'billing'),
  t(
    'task',
    'Renew TLS certificate for the portal',
    'The certificate expires at the end of the month. Use the DNS challenge; the HTTP one is blocked by the firewall.',
  ),
  t('help', 'Cannot attach files larger than 10 MB', 'The upload stops at 99% and no message is shown. Same in every browser.'),
  t('chat', 'Chat: integration with Slack?', 'Asked whether new helpdesk posts can be posted to a Slack channel automatically.'),
  t(
    'phone',
    'Call notes: quarterly review with Meridian',
    'Happy with response times. Want a monthly report of closed tickets per category.',
  ),
  t(
    'lead',
    'Lead: referral from Kestrel Analytics',
    'Fiona recommended us to a partner firm in Glasgow, 40 users, needs deals and contacts.',
    'sales',
  ),
  t(
    'error',
    'Search returns deleted deals',
    'Deals deleted last week still show up in the global search results. Opening one gives a 404 page.',
    'bug',
  ),
  t('idea', 'Idea: recurring tasks', 'Monthly tasks such as "send the usage report" have to be created by hand every time.'),
  t('feedback', 'Love the keyboard shortcuts', 'Especially `g t` to jump to tasks. Please add one for the helpdesk inbox.'),
  mail('Evergreen Property Group', 'Question about data export', TEMPLATED_MESSAGE, true),
  t(
    'task',
    'Clean up duplicate clients after import',
    'About 40 duplicates after the spreadsheet import. Merge them by tax number and keep the newest address.',
  ),
  t(
    'help',
    'Import from spreadsheet skips rows',
    'Rows with a comma in the company name are skipped:\n\n' +
      fence('csv', 'name,email\n"Smith, Jones & Co",office@smithjones.example\nPlain Name Ltd,hello@plainname.example') +
      '\n\nOnly the second row is imported.',
  ),
  t('chat', 'Chat: cannot find the export button', 'Pointed them to Settings → Data → Export. Resolved in the chat.'),
  t('phone', 'Missed call from Falcon Freight', 'Left a voicemail about the driver app login. Call back before noon.'),
  t(
    'lead',
    'Lead: solar installer looking for a CRM',
    'Small installer (8 people) wants quotes, deals and site visits in one place.',
    'sales',
  ),
  t(
    'error',
    'Timezone off by one hour in scheduled tasks',
    'After the daylight saving change a task saved as\n\n' +
      fence('json', '{ "scheduled_at": "2025-03-30T09:00:00.000+01:00" }') +
      '\n\nis shown at 10:00 in the task list.',
    'bug',
  ),
  t(
    'idea',
    'Idea: link deals to GitHub issues',
    'We track custom development for clients in GitHub. Showing the linked issues on the deal page would save a lot of tab switching.',
    'api',
  ),
  t('feedback', 'Dashboard widgets reset after logout', 'Our custom widget order is lost each time someone logs out.'),
  mail('Helix Biolabs', 'Fwd: Security questionnaire', FORWARD_WITH_IMAGE, true),
  t('task', 'Send contract draft to Helix Biolabs', 'Use the enterprise template: 24 months, annual billing, 99.9% availability annex.'),
  t(
    'help',
    'Where can I change the invoice numbering?',
    'We need the numbering to restart every year, with the year as a prefix.',
    'billing',
  ),
  t('chat', 'Chat: GDPR data processing agreement', 'Asked for our DPA and the list of sub-processors. Sent the link to the legal page.'),
  t('phone', 'Wants on-site training', 'Juniper Health would like a half-day training at their Austin office for 12 people.'),
  t('lead', 'Lead: boutique hotel chain', 'Three hotels around Lake Lucerne; interested in the helpdesk for guest requests.', 'sales'),
  t(
    'error',
    'Null reference in webhook retry job',
    'The retry worker crashes when a job has no backoff set:\n\n' +
      fence(
        'python',
        "Traceback (most recent call last):\n  File \"worker/retry.py\", line 88, in run\n    delay = job.backoff * 2 ** job.attempt\nTypeError: unsupported operand type(s) for *: 'NoneType' and 'int'",
      ),
    'bug',
  ),
  t('idea', 'Idea: bulk close helpdesk posts', 'Selecting many answered posts and closing them at once would help after holidays.'),
  k('suggestion', 'Calendar sync with Outlook', 'Please sync scheduled tasks with Outlook calendars, both ways if possible.'),
  k('suggestion', "Show a client's open deals on the client page", 'Today we have to switch to the deals list and filter by client.'),
  k('suggestion', 'Custom fields on deals', 'Clients have custom fields; deals would need at least a few string and date fields too.'),
  k(
    'error',
    'Login page shows a blank screen in Safari 16',
    'The console shows:\n\n' +
      fence('', 'SyntaxError: Invalid regular expression: invalid group specifier name\n    at login.bundle.js:2:18234') +
      '\n\nLookbehind assertions are not supported in that Safari version.',
  ),
  k('error', 'Duplicate notification emails', 'Every new comment sends the notification twice to the responsible person.'),
  k(
    'error',
    'Report totals do not match the invoice list',
    'The monthly revenue report shows 12,450.00 while the invoice list sums to 12,870.00 for the same month.',
  ),
  k('question', 'Is there an API rate limit?', 'We plan to sync about 5,000 clients every night. Is there a limit on requests per minute?'),
  k('question', 'Can our data be hosted in the EU?', 'Our legal department requires EU data residency for client records.'),
  k('question', 'Does the helpdesk support several mailboxes?', 'We would like support@ and billing@ to land in separate queues.'),
  k('praise', 'Support team was fantastic', 'Thanks to Marta for staying late to help us with the migration. Everything works.'),
  k('praise', 'The new reports are excellent', 'The per-category response time chart is exactly what management asked for.'),
  k('praise', 'Migration went smoothly', 'Moved 3,200 clients and 18,000 tickets over the weekend without a single problem.'),
  k(
    'private',
    'Internal: pricing exception for Nova Solar',
    'Approved 15% discount for the first year; do not mention it in public replies.',
  ),
  k('private', 'Internal: escalation policy draft', 'Tier 1 answers within 4 hours; anything older goes to the team lead automatically.'),
  k('private', 'Internal: churn risk — Orchid Florists', 'Usage dropped by half since March. Schedule a check-in call.'),
];

/** [index of the parent in DEMO_POSTS, comment content]: the team's answers, in Markdown. */
export const DEMO_COMMENTS: [number, string][] = [
  [7, 'Reproduced on staging. The tax number is null instead of an empty string after clearing the field.'],
  [7, 'Fixed in the next release:\n\n' + fence('ts', "const taxNo = (input ?? '').trim();")],
  [12, 'Yes: every integration has to use the new token. The old one stopped working when it was regenerated.'],
  [12, 'Thanks, updated our sync script and it works again.'],
  [3, 'Reset done. Please set up two-factor authentication again at your next login.'],
  [16, 'Confirmed: the export is missing the UTF-8 byte order mark. Excel then guesses the wrong encoding.'],
  [11, 'Deployed to staging; the signature check passes with the test payloads.'],
  [25, 'The search index is rebuilt nightly, so deleted deals disappear the next day. We will fix this properly.'],
  [34, 'Scheduled times are now stored in UTC and shown in the user time zone.'],
  [30, 'Quoted fields are now parsed correctly; please try the import again.'],
  [45, 'Planned for the next quarter.'],
  [51, 'No hard limit today, but please keep it under 10 requests per second.'],
  [51, 'Great, that is well within what we need.'],
  [41, 'Training booked for the 12th, 9:00–13:00.'],
  [48, 'Fixed: the login page no longer uses lookbehind assertions.'],
];

/** [index of the parent in DEMO_POSTS, HTML]: clients' replies that came in by mail, after the team's answers. */
export const DEMO_MAIL_COMMENTS: [number, string][] = [
  [1, OUTLOOK_REPLY_COMMENT],
  [10, GMAIL_REPLY_COMMENT],
];

/** An e-mail from a stranger: the hostile corpus (demoEmails.ts), one message for each family of attack. */
export interface HostileEmail {
  title: string;
  content: string;
  /** The sender, as the helpdesk names them. */
  from: { nick: string; email: string };
  /** A reply that came in by mail, HTML too. */
  comment?: string;
}

/** Seeded before the other posts: the oldest ids, so the end of the lists, not their first page. */
export const DEMO_HOSTILE: HostileEmail[] = [
  {
    title: 'Invoice INV-2291 overdue: action required',
    content: HOSTILE_ACTIVE,
    from: { nick: 'Billing', email: 'billing@phish.example' },
    comment: HOSTILE_COMMENT,
  },
  { title: 'Your mailbox is almost full', content: HOSTILE_HIDDEN, from: { nick: 'Mail Admin', email: 'admin@phish.example' } },
  { title: 'Re: urgent transfer today', content: HOSTILE_ENCODED, from: { nick: 'CEO', email: 'ceo@phish.example' } },
  { title: 'Delivery failure notice', content: HOSTILE_BROKEN, from: { nick: 'Mailer-Daemon', email: 'mailer-daemon@phish.example' } },
  { title: 'Fwd: nested', content: deepNesting(), from: { nick: 'Nest', email: 'nest@phish.example' } },
];
