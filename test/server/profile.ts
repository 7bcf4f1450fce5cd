/**
 * How the stand-in behaves where the spec is silent and the service notes say only "likely".
 * `likely` takes the side the notes find likely; `contrary` takes the other side of each, so
 * that the extension is shown to be right on both. Both keep what the notes call confirmed
 * (bare records, plain arrays, `"ok"` for a delete by default).
 */
export interface Profile {
  name: ProfileName;
  /** `order=field` / `order=field.desc` sorts lists; otherwise lists come in id order. */
  honoursOrder: boolean;
  /** `GET /app/deals.json?client_id=N` lists only that client's deals; otherwise every deal. */
  filtersDealsByClient: boolean;
  /** The most records a page holds, whatever `per_page` asks. */
  maxPerPage: number;
  /** `GET /app.json` lists comments (posts with a `post_id`) beside the other posts. */
  listsComments: boolean;
  /** Every post needs a title, comments too. */
  titleRequired: boolean;
  /** What a delete answers: the JSON string "ok", or an empty 200. */
  deleteAnswer: 'ok' | 'empty';
}

export type ProfileName = 'likely' | 'contrary';

export const PROFILES: Record<ProfileName, Profile> = {
  likely: { name: 'likely', honoursOrder: true, filtersDealsByClient: true, maxPerPage: 100, listsComments: false, titleRequired: false, deleteAnswer: 'ok' },
  contrary: { name: 'contrary', honoursOrder: false, filtersDealsByClient: false, maxPerPage: 25, listsComments: true, titleRequired: true, deleteAnswer: 'empty' },
};

export function isProfileName(value: string): value is ProfileName {
  return Object.hasOwn(PROFILES, value);
}
