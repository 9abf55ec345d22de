/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, SEP-1865): what a tool or a UI resource
 * says about its app. Read here without importing the bridge, so the CLI bundle (which never
 * renders apps) does not carry the bridge and its SDK.
 */

export { APP_MIME_TYPE, UI_EXTENSION_ID } from './app-ids.js';
/** Older flat key some servers still send instead of `_meta.ui.resourceUri`. */
const LEGACY_RESOURCE_URI_KEY = 'ui/resourceUri';

export type ToolVisibility = 'model' | 'app';

/** A tool's app: its `ui://` resource and who may see the tool. */
export interface ToolUi {
  resourceUri?: string;
  /** Absent means both people/agents (`model`) and the app. */
  visibility?: ToolVisibility[];
}

/** Domains a UI resource declares it needs; nothing declared means no network at all. */
export interface AppCspDeclaration {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** Browser features a UI resource asks for (mapped to the frame's `allow` attribute). */
export interface AppPermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}

export interface AppResourceMeta {
  csp?: AppCspDeclaration;
  permissions?: AppPermissions;
  prefersBorder?: boolean;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringList(v: unknown): string[] | undefined {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined;
}

/** The app of a tool from its `_meta`, or undefined when it has none (or only garbage). */
export function toolUiOf(meta: unknown): ToolUi | undefined {
  if (!isRecord(meta)) return undefined;
  const ui = isRecord(meta.ui) ? meta.ui : {};
  const out: ToolUi = {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : meta[LEGACY_RESOURCE_URI_KEY];
  // Only `ui://` resources are apps; anything else would let a tool point the frame anywhere.
  if (typeof uri === 'string' && uri.startsWith('ui://')) out.resourceUri = uri;
  const visibility = stringList(ui.visibility)?.filter((v): v is ToolVisibility => v === 'model' || v === 'app');
  if (visibility && visibility.length > 0) out.visibility = [...new Set(visibility)];
  return out.resourceUri !== undefined || out.visibility !== undefined ? out : undefined;
}

/** True when people and agents may see the tool (pick lists, tree, CLI, exported API). */
export function visibleToModel(t: { ui?: ToolUi }): boolean {
  return t.ui?.visibility === undefined || t.ui.visibility.includes('model');
}

/** True when an app may call the tool. */
export function visibleToApp(t: { ui?: ToolUi }): boolean {
  return t.ui?.visibility === undefined || t.ui.visibility.includes('app');
}

/** `_meta.ui` of a UI resource's content item (or of its listing), keeping only known fields. */
export function resourceUiOf(meta: unknown): AppResourceMeta {
  if (!isRecord(meta) || !isRecord(meta.ui)) return {};
  const ui = meta.ui;
  const out: AppResourceMeta = {};
  if (isRecord(ui.csp)) {
    const csp: AppCspDeclaration = {};
    for (const key of ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const) {
      const list = stringList(ui.csp[key]);
      if (list) csp[key] = list;
    }
    out.csp = csp;
  }
  if (isRecord(ui.permissions)) {
    const p: AppPermissions = {};
    for (const key of ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const) {
      if (isRecord(ui.permissions[key])) p[key] = {};
    }
    out.permissions = p;
  }
  if (typeof ui.prefersBorder === 'boolean') out.prefersBorder = ui.prefersBorder;
  return out;
}
