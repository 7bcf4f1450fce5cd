/**
 * Whether this process is an extension host, for the bench's preloaded hooks: code-server forks
 * it with this argument. The language servers it starts inherit its environment (which names the
 * extension host too), not its arguments.
 */
export const isExtensionHost = process.argv.includes('--type=extensionHost');

/**
 * Preloads the hook `file` into the extension host too, when called (at the hook's load) in the
 * server: VS Code 1.139 takes NODE_OPTIONS out of the extension host's environment (1.100 leaves
 * it there), but forks the host with the server's own execArgv. A file required twice runs once.
 */
export function preloadInExtensionHost(file: string): void {
  if (isExtensionHost || process.execArgv.includes(file)) return;
  process.execArgv.push('--require', file);
}
