/**
 * The settings behind tool search mode, profiles and result limits, read the same way by the
 * editor (VS Code settings) and by `mcp-host serve` (the editor's user settings.json, so both
 * offer agents the same profiles). Keys are under `mcpHost.`; package.json declares them.
 */
import { parseProfiles, type GatewayProfile } from './profiles.js';
import { DEFAULT_MAX_RESULT_TOKENS, type ResultLimitOptions } from './result-limit.js';
import { DEFAULT_MAX_SCHEMA_BYTES, DEFAULT_MAX_TOOLS, type ToolSearchOptions } from './tool-search.js';

export const VIEW_SETTING_KEYS = {
  toolSearch: 'gateway.toolSearch',
  maxTools: 'gateway.toolSearchMaxTools',
  maxSchemaBytes: 'gateway.toolSearchMaxSchemaBytes',
  alwaysList: 'gateway.alwaysList',
  profiles: 'gateway.profiles',
  maxResultTokens: 'gateway.maxResultTokens',
} as const;

export interface GatewayViewSettings {
  toolSearch: ToolSearchOptions;
  profiles: Record<string, GatewayProfile>;
  resultLimit: ResultLimitOptions;
  /** Values that were wrong and fell back to their defaults, said in the settings' own terms. */
  problems: string[];
}

/** @param get a setting under `mcpHost.` by its key (`gateway.profiles`), undefined when unset. */
export function readGatewayViewSettings(get: (key: string) => unknown): GatewayViewSettings {
  const problems: string[] = [];
  const count = (key: string, fallback: number): number => {
    const v = get(key);
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
    problems.push(`mcpHost.${key}: expected a whole number ≥ 0, got ${JSON.stringify(v)}; using ${fallback}`);
    return fallback;
  };
  const modeValue = get(VIEW_SETTING_KEYS.toolSearch);
  let mode: ToolSearchOptions['mode'] = 'auto';
  if (modeValue === 'auto' || modeValue === 'on' || modeValue === 'off') mode = modeValue;
  else if (modeValue !== undefined && modeValue !== null)
    problems.push(`mcpHost.${VIEW_SETTING_KEYS.toolSearch}: expected "auto", "on" or "off"; using "auto"`);
  const list = get(VIEW_SETTING_KEYS.alwaysList);
  const alwaysList = Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
  const { profiles, problems: profileProblems } = parseProfiles(get(VIEW_SETTING_KEYS.profiles));
  problems.push(...profileProblems);
  return {
    toolSearch: {
      mode,
      maxTools: count(VIEW_SETTING_KEYS.maxTools, DEFAULT_MAX_TOOLS),
      maxSchemaBytes: count(VIEW_SETTING_KEYS.maxSchemaBytes, DEFAULT_MAX_SCHEMA_BYTES),
      alwaysList,
    },
    profiles,
    resultLimit: { maxTokens: count(VIEW_SETTING_KEYS.maxResultTokens, DEFAULT_MAX_RESULT_TOKENS) },
    problems,
  };
}
