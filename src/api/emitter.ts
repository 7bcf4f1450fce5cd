/** A listener's handle: dispose() and it is told no more. */
export interface Subscription {
  dispose(): void;
}

/** Listeners to one kind of news, in plain TypeScript (what imports it need not import vscode). */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  readonly event = (listener: (value: T) => void): Subscription => {
    const own = (value: T) => listener(value); // the same function twice is two listeners
    this.listeners.add(own);
    return { dispose: () => this.listeners.delete(own) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }
}
