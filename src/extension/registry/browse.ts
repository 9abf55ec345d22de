import * as vscode from 'vscode';
import { openableUrl } from '../../core/auth/index.js';
import {
  type InstallChoice,
  installChoices,
  RegistryClient,
  RegistryError,
  type RegistryServer,
} from '../../core/registry/index.js';
import { installedAs, registrySettings, requireEnabled } from '../../core/config/index.js';
import { debounce } from '../config/debounce.js';
import { installFromRegistry, type BrowseDeps } from './install.js';
import { readSettings } from '../settings.js';

export type { BrowseDeps } from './install.js';

type ResultItem = vscode.QuickPickItem & { server?: RegistryServer; more?: true };

/** The registry the settings (and the managed policy) allow, or an error message saying why not. */
export async function editorRegistry(): Promise<RegistryClient> {
  const cfg = readSettings();
  const s = await registrySettings({
    settingUrl: cfg.registryUrl,
    env: process.env,
    managedPath: cfg.managedConfigPath,
  });
  requireEnabled(s);
  return new RegistryClient({ baseUrl: s.url });
}

function howItRuns(s: RegistryServer): string {
  const ways = installChoices(s).filter((c) => !c.unsupported);
  return ways.length ? ways.map((w) => w.summary).join(' · ') : 'no package or remote MCP Host can run';
}

function resultItem(s: RegistryServer, installed: string[]): ResultItem {
  return {
    label: `${installed.length ? '$(check) ' : ''}${s.title ?? s.name.split('/').pop() ?? s.name}`,
    description: `${s.name}${s.version ? ` @${s.version}` : ''}${installed.length ? ` — installed as ${installed.join(', ')}` : ''}`,
    detail: `${s.description ?? ''}${s.description ? ' — ' : ''}${howItRuns(s)}`,
    // Results are already filtered by the registry; the quick pick must not hide them again.
    alwaysShow: true,
    server: s,
  };
}

/**
 * `Browse Servers…`: searches the registry as the user types (debounced; the older request is
 * cancelled), pages on demand, marks what is installed, and opens the details of a pick.
 */
export async function browseRegistry(deps: BrowseDeps): Promise<void> {
  const client = await editorRegistry();
  const qp = vscode.window.createQuickPick<ResultItem>();
  qp.title = `MCP Registry — ${client.baseUrl}`;
  qp.placeholder = 'Search servers by name or description';
  qp.matchOnDescription = true;
  qp.matchOnDetail = true;
  let servers: RegistryServer[] = [];
  let cursor: string | undefined;
  let request: AbortController | undefined;
  let query = '';

  const render = (): void => {
    const configured = deps.controller.servers().map((s) => ({ name: s.name, config: s.definition.config }));
    const items: ResultItem[] = servers.map((s) => resultItem(s, installedAs(s, configured)));
    if (cursor) items.push({ label: '$(ellipsis) Load more results…', alwaysShow: true, more: true });
    if (!servers.length && !qp.busy)
      items.push({ label: query ? `No servers match "${query}"` : 'The registry has no servers', alwaysShow: true });
    qp.items = items;
  };

  const load = async (append: boolean): Promise<void> => {
    request?.abort();
    const ctl = new AbortController();
    request = ctl;
    qp.busy = true;
    try {
      const page = await client.search(query, { cursor: append ? cursor : undefined, limit: 30, signal: ctl.signal });
      if (ctl.signal.aborted) return;
      servers = append ? [...servers, ...page.servers] : page.servers;
      cursor = page.nextCursor;
      if (page.skipped.length)
        deps.log.warn(`registry: skipped ${page.skipped.length} entries: ${page.skipped.join('; ')}`);
      qp.busy = false;
      render();
    } catch (e) {
      if (ctl.signal.aborted) return;
      qp.busy = false;
      servers = [];
      cursor = undefined;
      const msg = e instanceof RegistryError ? e.message : `Registry search failed: ${(e as Error).message}`;
      deps.log.warn(msg);
      qp.items = [{ label: `$(error) ${msg}`, alwaysShow: true }];
    }
  };

  const search = debounce(() => void load(false), 300);
  const picked = new Promise<RegistryServer | undefined>((resolve) => {
    qp.onDidChangeValue((v) => {
      query = v.trim();
      search();
    });
    qp.onDidAccept(() => {
      const item = qp.selectedItems[0];
      if (item?.more) {
        void load(true);
        return;
      }
      if (item?.server) {
        resolve(item.server);
        qp.hide();
      }
    });
    qp.onDidHide(() => resolve(undefined));
  });
  qp.show();
  void load(false);
  let server: RegistryServer | undefined;
  try {
    server = await picked;
  } finally {
    search.dispose();
    request?.abort();
    qp.dispose();
  }
  if (!server) return;
  const action = await showDetails(server, deps);
  if (action === 'back') await browseRegistry(deps);
}

type DetailItem = vscode.QuickPickItem & { choice?: InstallChoice; url?: string; back?: true };

/** The details of one server: how it can run, links, and the Install actions. */
async function showDetails(server: RegistryServer, deps: BrowseDeps): Promise<'back' | 'done'> {
  const items: DetailItem[] = [];
  for (const c of installChoices(server)) {
    if (c.unsupported) items.push({ label: '$(circle-slash) Cannot install', detail: c.unsupported });
    else
      items.push({
        label: `$(cloud-download) Install: ${c.choice.kind === 'package' ? 'package' : 'remote'}`,
        description: c.summary,
        choice: c.choice,
      });
  }
  if (server.repositoryUrl)
    items.push({
      label: '$(repo) Repository and README',
      description: server.repositoryUrl,
      url: server.repositoryUrl,
    });
  if (server.websiteUrl)
    items.push({ label: '$(globe) Website', description: server.websiteUrl, url: server.websiteUrl });
  for (const s of server.skipped) items.push({ label: '$(warning) Not readable', detail: s });
  items.push({ label: '$(arrow-left) Back to results', back: true });
  const pick = await vscode.window.showQuickPick(items, {
    title: `${server.title ?? server.name}${server.version ? ` @${server.version}` : ''}${server.status && server.status !== 'active' ? ` (${server.status})` : ''}`,
    placeHolder: server.description ?? server.name,
    ignoreFocusOut: true,
  });
  if (!pick) return 'done';
  if (pick.back) return 'back';
  if (pick.url) {
    // The same check as sign-in URLs; the checked string is passed as is (see auth/opener.ts).
    await vscode.env.openExternal(openableUrl(pick.url, 'The registry link') as unknown as vscode.Uri);
    return 'done';
  }
  if (pick.choice) await installFromRegistry(server, pick.choice, deps);
  return 'done';
}
