// Which floor the bench pairs Helpdesk Bridge against: what its Open Post shows (--post-floor) and
// what its Report Bug does (--bug-floor), read from the bench's arguments; what the report calls
// it; and what the floor extension's host is told (test/bench/fixture/floor/extension.js reads it).

/** The floor's Open Post: its content in a text document (the default), or in a bare webview (an experiment). */
export type PostFloor = 'text' | 'webview';
/**
 * The floor's Report Bug: one bare POST of the body Helpdesk Bridge sent (the default), or the
 * same after asking the built-in Git extension what Helpdesk Bridge asks it for the permalink.
 */
export type BugFloor = 'bare' | 'git';

export interface Floors {
  post: PostFloor;
  bug: BugFloor;
}

export const DEFAULT_FLOORS: Floors = { post: 'text', bug: 'bare' };

/** The floors the arguments name; an error that says what is accepted for any other. */
export function readFloors(values: { 'post-floor'?: string; 'bug-floor'?: string; against?: string }): Floors {
  const post = values['post-floor'] ?? DEFAULT_FLOORS.post;
  const bug = values['bug-floor'] ?? DEFAULT_FLOORS.bug;
  if (post !== 'text' && post !== 'webview') throw new Error(`--post-floor is text or webview, not ${post}.`);
  if (bug !== 'bare' && bug !== 'git') throw new Error(`--bug-floor is bare or git, not ${bug}.`);
  if (values.against !== undefined) {
    if (post !== DEFAULT_FLOORS.post) throw new Error('--post-floor is for the floor, not with --against.');
    if (bug !== DEFAULT_FLOORS.bug) throw new Error('--bug-floor is for the floor, not with --against.');
  }
  return { post, bug };
}

/** What the report calls the floor: "Floor", or with what differs from the default in brackets. */
export function floorLabel(floors: Floors): string {
  const differs = [floors.post === 'webview' ? 'webview' : '', floors.bug === 'git' ? 'Git' : ''].filter(Boolean);
  return differs.length === 0 ? 'Floor' : `Floor (${differs.join(', ')})`;
}

/** The floor extension's settings, for its extension host's environment. */
export function floorEnv(floors: Floors): Record<string, string> {
  return { HELPDESK_FLOOR_OPEN_POST: floors.post, HELPDESK_FLOOR_REPORT_BUG: floors.bug };
}
