import vscode = require('vscode');
import type { Client } from '../api';
import type { ClientContext, ClientPosts } from '../store/clientContext';
import { inlineCode, linklessMarkdown } from '../text/markdown';
import { labelText } from '../text/serverText';
import { errorText } from '../ui/errorText';
import { postTitle } from '../text/postFacts';
import { numberText } from '../text/intl';
import { plural } from '../text/plural';

const { l10n } = vscode;

/** The most other posts and deals the document lists (it counts them all). */
export const LISTED = 50;

/** The client's name as a label, or its number. */
export function clientName(clientId: number, client: Client | undefined): string {
  return labelText(client?.name, 120) || l10n.t('client #{0}', clientId);
}

/** The contact's parts, as plain one-line text each: name, e-mail, phone. */
export function contactParts(client: Client | undefined): string[] {
  if (!client) return [];
  const name = labelText([client.first_name, client.last_name].filter((v) => typeof v === 'string').join(' '), 120);
  return [name, labelText(client.email, 200), labelText(client.phone, 60) || labelText(client.mobile_phone, 60)].filter(Boolean);
}

/** "2 other open posts", and where not every post was looked through, "among the 500 newest posts". */
export function postsCountText(posts: ClientPosts): string {
  const n = posts.open.length;
  const count =
    n === 0
      ? l10n.t('no other open post')
      : plural(n, {
          one: l10n.t({ message: '{0} other open post', args: [numberText(n)], comment: 'plural: one' }),
          few: l10n.t({ message: '{0} other open posts', args: [numberText(n)], comment: 'plural: few' }),
          many: l10n.t({ message: '{0} other open posts', args: [numberText(n)], comment: 'plural: many' }),
          other: l10n.t({ message: '{0} other open posts', args: [numberText(n)], comment: 'plural: other' }),
        });
  return posts.all
    ? count
    : plural(posts.looked, {
        one: l10n.t({ message: '{0} in the {1} newest post', args: [count, numberText(posts.looked)], comment: 'plural: one' }),
        few: l10n.t({ message: '{0} among the {1} newest posts', args: [count, numberText(posts.looked)], comment: 'plural: few' }),
        many: l10n.t({ message: '{0} among the {1} newest posts', args: [count, numberText(posts.looked)], comment: 'plural: many' }),
        other: l10n.t({ message: '{0} among the {1} newest posts', args: [count, numberText(posts.looked)], comment: 'plural: other' }),
      });
}

export function dealsCountText(context: ClientContext): string | undefined {
  const { deals } = context;
  if (!deals) return undefined;
  const n = deals.items.length;
  const count =
    n === 0
      ? l10n.t('no deals')
      : plural(n, {
          one: l10n.t({ message: '{0} deal', args: [numberText(n)], comment: 'plural: one' }),
          few: l10n.t({ message: '{0} deals', args: [numberText(n)], comment: 'plural: few' }),
          many: l10n.t({ message: '{0} deals', args: [numberText(n)], comment: 'plural: many' }),
          other: l10n.t({ message: '{0} deals', args: [numberText(n)], comment: 'plural: other' }),
        });
  return deals.error === undefined ? count : l10n.t('{0} read (reading further failed)', count);
}

/**
 * One line of plain text for a hover: the client, contact, counts, as far as known (a hover waits
 * for nothing more). The caller makes it inert (no link can come of it).
 */
export function clientHoverText(context: ClientContext): string {
  const parts = [
    l10n.t('Client: {0}', clientName(context.clientId, context.client)),
    ...contactParts(context.client),
    context.posts && postsCountText(context.posts),
    dealsCountText(context),
  ];
  return parts.filter(Boolean).join(' · ');
}

/**
 * The document's section on the client: contact, other open posts and deals, counted and listed.
 * Server text is escaped as the rest of the document's facts are; the contact's parts (an e-mail,
 * a phone number) are inline code, which no preview turns into a link. `undefined`: being read.
 */
export function clientSection(clientId: number, client: Client | undefined, context: ClientContext | undefined): string[] {
  const known = context?.client ?? client;
  const name = known ? `${linklessMarkdown(clientName(clientId, known))} (#${clientId})` : `#${clientId}`;
  const lines = [`## ${l10n.t('Client')}`, '', `- ${l10n.t('Name')}: ${name}`];
  const contact = contactParts(known);
  if (contact.length > 0) lines.push(`- ${l10n.t('Contact')}: ${contact.map(inlineCode).join(' · ')}`);
  if (!context) return [...lines, `- ${l10n.t('Other open posts and deals: reading…')}`, ''];
  if (!known && context.clientError !== undefined)
    lines.push(`- ${linklessMarkdown(l10n.t('The client could not be read: {0}', errorText(context.clientError)))}`);
  const { posts } = context;
  if (posts) {
    const failed = posts.error !== undefined ? ` ${linklessMarkdown(l10n.t('(reading further failed: {0})', errorText(posts.error)))}` : '';
    lines.push(`- ${l10n.t('Other open posts')}: ${linklessMarkdown(postsCountText(posts))}${failed}`);
    lines.push(...listed(posts.open.map((post) => `#${post.id} ${linklessMarkdown(postTitle(post))}`)));
  } else {
    lines.push(
      `- ${l10n.t('Other open posts')}: ${linklessMarkdown(l10n.t('not counted: the list of posts was read again meanwhile. Open the post again to count them.'))}`,
    );
  }
  if (context.deals) {
    lines.push(`- ${l10n.t('Deals')}: ${linklessMarkdown(dealsCountText(context) ?? '')}`);
    lines.push(
      ...listed(
        context.deals.items.map((deal) => {
          const price = typeof deal.price === 'number' || typeof deal.price === 'string' ? labelText(String(deal.price), 20) : '';
          return [`#${deal.id} ${linklessMarkdown(labelText(deal.name, 120) || l10n.t('Deal #{0}', deal.id))}`, linklessMarkdown(price)]
            .filter(Boolean)
            .join(' · ');
        }),
      ),
    );
  } else if (context.dealsError !== undefined) {
    lines.push(`- ${l10n.t('Deals')}: ${linklessMarkdown(l10n.t('could not be read: {0}', errorText(context.dealsError)))}`);
  }
  return [...lines, ''];
}

/** Items as a nested list, the first LISTED of them. */
function listed(items: string[]): string[] {
  const lines = items.slice(0, LISTED).map((item) => `  - ${item}`);
  if (items.length > LISTED) lines.push(`  - ${l10n.t('and {0} more', numberText(items.length - LISTED))}`);
  return lines;
}
