/**
 * Whether this process is an extension host, for the bench's preloaded hooks: code-server forks
 * it with this argument. The language servers it starts inherit its environment (which names the
 * extension host too), not its arguments.
 */
export const isExtensionHost = process.argv.includes('--type=extensionHost');
