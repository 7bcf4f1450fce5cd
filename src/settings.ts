import vscode = require('vscode');
import { clampPerPage } from './api';

export const SETTINGS = {
  accountUrl: 'helpdesk.accountUrl',
  pageSize: 'helpdesk.pageSize',
  showClosedPosts: 'helpdesk.showClosedPosts',
  snippetMaxLines: 'helpdesk.snippetMaxLines',
  autoRefreshMinutes: 'helpdesk.autoRefreshMinutes',
  requestTimeoutSeconds: 'helpdesk.requestTimeoutSeconds',
} as const;

export interface Settings {
  accountUrl: string;
  pageSize: number;
  showClosedPosts: boolean;
  snippetMaxLines: number;
  autoRefreshMinutes: number;
  requestTimeoutSeconds: number;
}

/** The settings, with out-of-range values brought back into range. */
export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration('helpdesk');
  const whole = (key: string, fallback: number, min: number, max: number) => {
    const value = config.get<number>(key, fallback);
    return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : fallback;
  };
  return {
    accountUrl: config.get<string>('accountUrl', '').trim(),
    pageSize: clampPerPage(config.get<number>('pageSize', 50)),
    showClosedPosts: config.get<boolean>('showClosedPosts', false) === true,
    snippetMaxLines: whole('snippetMaxLines', 80, 1, 1000),
    autoRefreshMinutes: whole('autoRefreshMinutes', 0, 0, 1440),
    requestTimeoutSeconds: whole('requestTimeoutSeconds', 15, 1, 300),
  };
}
