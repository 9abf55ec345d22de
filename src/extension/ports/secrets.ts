import type * as vscode from 'vscode';
import type { SecretStore } from '../../core/ports.js';

/** The core's SecretStore over VS Code SecretStorage (OS keychain on desktop). */
export function secretStore(storage: vscode.SecretStorage): SecretStore {
  return {
    get: async (key) => storage.get(key),
    store: async (key, value) => storage.store(key, value),
    delete: async (key) => storage.delete(key),
  };
}
