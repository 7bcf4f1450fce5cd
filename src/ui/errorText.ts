import vscode = require('vscode');
import { AccountUrlError, isApiError, parseAccountUrl, type ApiError } from '../api';
import { SignedOutError } from '../api/account';
import { labelText } from '../text/serverText';

const { l10n } = vscode;

/** A failure in words a person can act on, in their language. Never a stack trace. */
export function errorText(error: unknown): string {
  if (isApiError(error)) return apiErrorText(error);
  if (error instanceof AccountUrlError) return accountUrlText(error);
  if (error instanceof SignedOutError)
    return l10n.t('You signed out of {0} (in this window or another) before it finished.', error.accountUrl);
  return l10n.t('Something went wrong: {0}', error instanceof Error ? error.message : String(error));
}

/**
 * A failed sign-in check in words. A web page where data was expected, or a redirect to another
 * host, is what a service does with a token it does not know, or at an address that is not the
 * account's: it sends the browser to its sign-in page.
 */
export function signInErrorText(error: unknown): string {
  if (isApiError(error, 'badResponse') && (error.reason === 'html' || error.reason === 'foreignRedirect')) {
    return error.reason === 'html'
      ? l10n.t(
          "{0} answered with a web page (a sign-in page?) instead of data: the token was rejected, or the address is not the account's.",
          error.host,
        )
      : l10n.t(
          "{0} sent the request on to {1} (a sign-in page?), where the token was not sent: the token was rejected, or the address is not the account's.",
          error.host,
          labelText(error.redirectHost, 100) || '?',
        );
  }
  return errorText(error);
}

/** A read (GET) the service refused this account (403): no token to sign in again for. */
export function isReadRefused(error: unknown): boolean {
  return isApiError(error, 'auth') && error.status === 403 && error.method === 'GET';
}

function apiErrorText(error: ApiError): string {
  // The service's words are its own: shown as plain text, never as a link (see labelText).
  const said = error.serverMessage && labelText(error.serverMessage, 300);
  switch (error.kind) {
    case 'auth':
      // A read refused is this account's rights: the same token would meet the same (a rejected token is a 401).
      if (isReadRefused(error)) {
        return said
          ? l10n.t("This account is not allowed to read this (HTTP 403): {0}. Ask the helpdesk's administrator for access.", said)
          : l10n.t("This account is not allowed to read this (HTTP 403). Ask the helpdesk's administrator for access.");
      }
      if (error.status === 403) {
        return said
          ? l10n.t('The API token is not allowed to do this (HTTP 403): {0}. Sign in with a token that has access.', said)
          : l10n.t('The API token is not allowed to do this (HTTP 403). Sign in with a token that has access.');
      }
      return l10n.t('The API token was rejected (HTTP {0}). Sign in again with a current token.', error.status ?? 401);
    case 'notFound':
      return l10n.t('Not found (HTTP 404): {0} {1}. It may have been deleted.', error.method, error.path);
    case 'validation':
      return said
        ? l10n.t('The service refused the request (HTTP {0}): {1}.', error.status ?? 422, said)
        : l10n.t('The service refused the request (HTTP {0}).', error.status ?? 422);
    case 'rateLimited':
      // A Retry-After of hours (or a date years away) is no count of seconds to read.
      if (error.retryAfterSeconds === undefined) return l10n.t('{0} asked to slow down (HTTP 429). Try again in a moment.', error.host);
      return error.retryAfterSeconds > 3600
        ? l10n.t('{0} asked to slow down (HTTP 429). Try again later.', error.host)
        : l10n.t('{0} asked to slow down (HTTP 429). Try again in {1} s.', error.host, Math.ceil(error.retryAfterSeconds));
    case 'server':
      if (error.status !== undefined && error.status < 300) return errorInAnswerText(error, said);
      return said
        ? l10n.t('The service failed (HTTP {0}): {1}. Try again later.', error.status ?? 500, said)
        : l10n.t('The service failed (HTTP {0}). Try again later.', error.status ?? 500);
    case 'badResponse':
      return badResponseText(error);
    case 'timeout':
      return l10n.t('{0} did not answer within {1} s. Try again later.', error.host, error.timeoutSeconds ?? '?');
    case 'cancelled':
      return l10n.t('The request was cancelled.');
    case 'network':
      return l10n.t('Could not reach {0}: {1}. Check the account address and your connection.', error.host, networkReason(error.code));
  }
}

/** An answer that said "done" (2xx) with an error for its body: a write may have been stored all the same. */
function errorInAnswerText(error: ApiError, said: string | undefined): string {
  const text = said ? l10n.t('The service answered with an error: {0}.', said) : l10n.t('The service answered with an error.');
  return error.method === 'GET' ? text : `${text} ${l10n.t('It may have been stored all the same.')}`;
}

function badResponseText(error: ApiError): string {
  switch (error.reason) {
    case 'empty':
      return l10n.t('The service sent an empty answer where a record was expected.');
    case 'html':
      return l10n.t('The service answered with a web page instead of data. Check that the account address is right.');
    case 'notJson':
      return l10n.t('The service sent an answer that is not valid JSON.');
    case 'foreignRedirect':
      return l10n.t(
        'The service redirected to another host ({0}); the request was not sent there. Check the account address.',
        labelText(error.redirectHost, 100) || '?',
      );
    case 'tooManyRedirects':
      return l10n.t('The service redirected too many times.');
    case 'tooLarge':
      return l10n.t('The service sent an answer too large to read. Check that the account address is right.');
    case 'writeRedirect':
      return l10n.t(
        'The service answered with a redirect, and a change is never sent twice. It may have been stored: sending again looks for it first.',
      );
    default:
      return l10n.t('The service sent an unexpected answer: expected {0}.', labelText(error.expected, 200) || '?');
  }
}

function networkReason(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return l10n.t('the connection was refused (is the service running?)');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return l10n.t('the host name could not be found');
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return l10n.t('the connection was closed before an answer came');
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return l10n.t('the connection timed out');
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
      return l10n.t('its certificate was not accepted ({0})', code);
    default:
      return code ? l10n.t('network error {0}', labelText(code, 40)) : l10n.t('network error');
  }
}

function accountUrlText(error: AccountUrlError): string {
  switch (error.problem) {
    case 'empty':
      return l10n.t('Enter the account address, e.g. https://yourcompany.example.com.');
    case 'notAddress':
      return l10n.t('That is not a web address. Enter it as https://yourcompany.example.com.');
    case 'scheme':
      return l10n.t('The account address must start with https:// (got {0}//).', error.detail.scheme ?? '?');
    case 'plainHttp':
      return l10n.t(
        'Plain http:// is only allowed for addresses on this machine (localhost, 127.0.0.1). Use https://{0} so the API token is not sent unencrypted.',
        error.detail.host ?? '',
      );
    case 'credentials':
      return l10n.t('The account address must not contain a user name or password.');
    case 'schemeTypo':
      return error.detail.meant
        ? l10n.t(
            'The address starts with "{0}": did you mean {1}? An address starts with https:// (a colon and two slashes).',
            error.detail.typed ?? '',
            error.detail.meant,
          )
        : l10n.t(
            'The address starts with "{0}": write https:// (a colon and two slashes), as in https://yourcompany.example.com.',
            error.detail.typed ?? '',
          );
    case 'host':
      return l10n.t(
        '"{0}" is not a host name. Enter the address as in your browser, e.g. https://yourcompany.example.com.',
        error.detail.host ?? '',
      );
    case 'looksLikeToken':
      return l10n.t(
        "That looks like an API token, not an address. Enter your account's address first (https://yourcompany.example.com); the token comes next.",
      );
  }
}

/** Why an address typed into the sign-in box is not usable, or undefined when it is. */
export function accountUrlProblem(input: string): string | undefined {
  try {
    parseAccountUrl(input);
    return undefined;
  } catch (error) {
    return errorText(error);
  }
}
