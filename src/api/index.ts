export * from './address';
export * from './client';
export * from './errors';
export type { CallOptions, RequestLogEntry } from './http';
export * from './paging';
export { REDACTED, redact, redactUrl } from './redact';
export type { Resource } from './resource';
export type { PostsApi } from './posts';
export * from './types';
