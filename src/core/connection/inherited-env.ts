/**
 * What a stdio server inherits from its host's environment: the SDK's safe subset (HOME, PATH,
 * SHELL, USER, TERM…), taken from the environment the host was given rather than always from
 * process.env, so a CLI run in a test's process starts servers as the binary would.
 */
import { DEFAULT_INHERITED_ENV_VARS } from '@modelcontextprotocol/client/stdio';

export function inheritedEnv(from: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of DEFAULT_INHERITED_ENV_VARS) {
    const value = from[key];
    // As the SDK's getDefaultEnvironment: an exported shell function is not passed on.
    if (value === undefined || value.startsWith('()')) continue;
    env[key] = value;
  }
  return env;
}
