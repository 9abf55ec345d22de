import type { Disposable } from './ports.js';

export type Event<T> = (listener: (e: T) => void) => Disposable;

/** A minimal typed event emitter with the same shape as vscode.EventEmitter, usable in core. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(e: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // A throwing listener must not stop the others from hearing about the change.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
