/** The one builder of server definitions for tests: what the config loader would produce for an entry. */
import { signatureOf, stableHash } from '../../src/core/config/signature.js';
import type { ServerConfig, ServerDefinition, ConfigSource } from '../../src/core/config/types.js';

export function def(
  name: string,
  config: Record<string, unknown> | ServerConfig,
  source: ConfigSource = { scope: 'user', file: 'test', jsonPath: ['servers', name] },
): ServerDefinition {
  const c = config as unknown as ServerConfig;
  return { name, config: c, source, signature: signatureOf(c), hash: stableHash(config) };
}
