/**
 * A feature that lives in a bundle of its own (scripts/lib/lazy-bundles.mjs) and loads on first use:
 * its commands are registered at activation and load it when run; a feature configured to run at
 * start-up loads once `activate` has returned, so activation parses only the host, tree and palette.
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/ports.js';
import type { CommandHandler } from '../command-table.js';

export class LazyFeature<T extends vscode.Disposable> implements vscode.Disposable {
  private loading: Promise<T | undefined> | undefined;
  private value: T | undefined;
  private disposed = false;

  constructor(
    private readonly what: string,
    private readonly log: Logger,
    private readonly load: () => Promise<T>,
  ) {}

  /** The feature, loading it the first time; undefined once disposed or when its bundle failed to load. */
  get(): Promise<T | undefined> {
    if (this.disposed) return Promise.resolve(undefined);
    this.loading ??= this.load().then(
      (t) => {
        if (this.disposed) {
          t.dispose();
          return undefined;
        }
        this.value = t;
        return t;
      },
      (e: unknown) => {
        // The next use tries again (a bundle half-written by a watch build, say).
        this.loading = undefined;
        this.log.error(`${this.what} could not load: ${errorMessage(e)}`);
        return undefined;
      },
    );
    return this.loading;
  }

  /** The feature if it has loaded, without loading it. */
  loaded(): T | undefined {
    return this.value;
  }

  /** Loads it after `activate` returns when `wanted` says it runs at start-up. */
  startIf(wanted: () => boolean): void {
    setImmediate(() => {
      if (wanted()) void this.get();
    });
  }

  /** Handlers that load the feature, then run its own handler of the same id. */
  commands<K extends string>(ids: readonly K[], of: (t: T) => Record<K, CommandHandler>): Record<K, CommandHandler> {
    const table = {} as Record<K, CommandHandler>;
    for (const id of ids)
      table[id] = async (...args) => {
        const t = await this.get();
        return t ? of(t)[id](...args) : undefined;
      };
    return table;
  }

  dispose(): void {
    this.disposed = true;
    this.value?.dispose();
    this.value = undefined;
  }
}
