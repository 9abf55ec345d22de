/**
 * The files of the agent CLIs that keep MCP servers of their own: GitHub Copilot CLI
 * (`~/.copilot/mcp-config.json`, also where VS Code 1.140's "MCP: Add Server" writes a global
 * server; and a folder's `.github/mcp.json`, read as a project file), Gemini CLI (`mcpServers` in `~/.gemini/settings.json`) and OpenAI Codex
 * (`[mcp_servers.NAME]` tables in `~/.codex/config.toml`). Each app spells an entry its own way;
 * these functions turn one into the shape our schema reads, dropping only what is the other app's
 * own business (its tool allow-lists, its trust flag, its timeouts in seconds), so validation,
 * variables, approval and dedupe are the same as for every other scope. Read only; never written.
 */
import { join } from 'node:path';
import type { ConfigProblem } from '../problem.js';
import type { RawEntry, SourceResult } from './entry.js';
import { readProjectFile } from './project.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function mapValue(e: RawEntry, f: (v: Obj) => Obj): RawEntry {
  return isObj(e.value) ? { ...e, value: f(e.value) } : e;
}

function without(v: Obj, keys: readonly string[]): Obj {
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) if (!keys.includes(k)) out[k] = x;
  return out;
}

/**
 * Copilot CLI: `type` is `local` (or `stdio`) for a command, `http` or `sse` for a URL; `tools`
 * is its own allow-list (`["*"]` for all).
 */
export function copilotEntry(e: RawEntry): RawEntry {
  return mapValue(e, (v) => {
    const out = without(v, ['tools']);
    if (out.type === 'local') out.type = 'stdio';
    return out;
  });
}

/** Copilot CLI's servers of one folder (`copilot mcp` lists them as "Workspace", beside `.mcp.json`). */
export function copilotProjectFile(folder: string): string {
  return join(folder, '.github', 'mcp.json');
}

/**
 * `<folder>/.github/mcp.json`, Copilot CLI's shape (`mcpServers`, plain JSON), as a project file: it
 * comes with the folder like `.mcp.json`, so its servers start only once approved. Read beside, and
 * before, `.mcp.json`, which wins a name both define.
 */
export function readCopilotProject(folder: string): Promise<SourceResult> {
  return readProjectFile(copilotProjectFile(folder), folder, copilotEntry);
}

/**
 * Gemini CLI: `httpUrl` is a Streamable HTTP server, `url` an SSE one; `trust`,
 * `includeTools`/`excludeTools` and `description` are its own; `timeout` is milliseconds, as ours.
 */
export function geminiEntry(e: RawEntry): RawEntry {
  return mapValue(e, (v) => {
    const out = without(v, ['trust', 'includeTools', 'excludeTools', 'description', 'httpUrl', 'authProviderType']);
    if (typeof v.httpUrl === 'string') {
      out.type = 'http';
      out.url = v.httpUrl;
    } else if (typeof v.url === 'string' && out.type === undefined) {
      out.type = 'sse';
    }
    return out;
  });
}

/** A header value that reads an environment variable, in our variable syntax. */
const fromEnv = (name: string): string => `\${env:${name}}`;

/**
 * Codex: `command`/`args`/`env`/`cwd` for a command, `url` for Streamable HTTP with
 * `bearer_token_env_var`, `http_headers` (literal) and `env_http_headers` (header → variable);
 * `enabled = false` is a switched-off server. Its timeouts (seconds), tool lists and
 * `env_vars` (names passed through from its own environment) are its own.
 */
export function codexEntry(e: RawEntry): RawEntry {
  return mapValue(e, (v) => {
    const out = without(v, [
      'enabled',
      'startup_timeout_sec',
      'startup_timeout_ms',
      'tool_timeout_sec',
      'enabled_tools',
      'disabled_tools',
      'bearer_token_env_var',
      'http_headers',
      'env_http_headers',
      'env_vars',
      'required',
    ]);
    if (v.enabled === false) out.disabled = true;
    if (typeof v.url === 'string') {
      out.type = 'http';
      const headers: Obj = isObj(v.http_headers) ? { ...v.http_headers } : {};
      if (isObj(v.env_http_headers))
        for (const [h, name] of Object.entries(v.env_http_headers))
          if (typeof name === 'string') headers[h] = fromEnv(name);
      if (typeof v.bearer_token_env_var === 'string')
        headers.Authorization = `Bearer ${fromEnv(v.bearer_token_env_var)}`;
      if (Object.keys(headers).length) out.headers = headers;
    }
    return out;
  });
}

/**
 * Codex's `config.toml` as a document, or a problem naming the file and the line. The parser is
 * loaded on first use (an ES module, and only users of Codex discovery need it).
 */
export async function parseCodexConfig(text: string, file: string): Promise<{ doc?: Obj; problems: ConfigProblem[] }> {
  const { parse, TomlError } = await import('smol-toml');
  try {
    return { doc: parse(text) as Obj, problems: [] };
  } catch (err) {
    const at = err instanceof TomlError ? { line: err.line, column: err.column } : {};
    const first = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    return {
      problems: [
        {
          severity: 'error',
          code: 'invalid-toml',
          message: `${file} is not valid TOML (${first}); its servers are left out.`,
          file,
          jsonPath: [],
          scope: 'discovered',
          ...at,
        },
      ],
    };
  }
}
