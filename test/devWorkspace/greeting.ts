export function greeting(name: string): string {
  if (!name) throw new Error('name is required');
  return `Hello, ${name}!`;
}
