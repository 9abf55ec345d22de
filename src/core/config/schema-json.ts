/**
 * The config JSON schemas, generated from the zod schemas (schema.ts for a server entry,
 * inputs-schema.ts for `.vscode/mcp.json` inputs; the docs of schema-docs.ts ride on `.meta()`):
 * `media/*.schema.json` and the inline entry schema of the `mcpHost.servers` setting (VS Code does not follow file `$ref`s in settings). Written by
 * scripts/gen-schema.mjs during `npm run build`; a unit test checks the committed files match.
 */
import * as z from 'zod/v4';
import { inputsSchema } from './inputs-schema.js';
import { serverEntrySchema } from './schema.js';
import { sandboxSettingsSchema } from './sandbox-settings-schema.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const SERVERS_BY_NAME = 'Servers keyed by name. The name becomes part of tool names (mcp__<name>__<tool>).';

type Json = Record<string, unknown>;

/** Drops what zod adds but editors do not need (`propertyNames: {type: string}` on every record). */
function tidy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(tidy);
  if (v === null || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'propertyNames' && JSON.stringify(x) === '{"type":"string"}') continue;
    out[k] = tidy(x);
  }
  return out;
}

/** One server entry as a draft-07 schema, `$schema` first. */
export function serverEntryJsonSchema(): Json {
  const { $schema: _s, ...rest } = z.toJSONSchema(serverEntrySchema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
  }) as Json;
  return { $schema: DRAFT_07, ...(tidy(rest) as Json) };
}

/** The entry without `$schema`, for embedding (definitions, the setting). */
export function embeddedEntry(): Json {
  const { $schema: _s, ...entry } = serverEntryJsonSchema();
  return entry;
}

/** `.vscode/mcp.json` inputs, from the schema the loader reads them with (inputs-schema.ts). */
function inputsJsonSchema(): Json {
  const { $schema: _s, ...rest } = z.toJSONSchema(inputsSchema, {
    target: 'draft-7',
    io: 'input',
    unrepresentable: 'any',
  }) as Json;
  return tidy(rest) as Json;
}

/** The file-level `sandbox` object (VS Code's shape), for both file formats and the `mcpHost.sandbox` setting. */
export function sandboxJsonSchema(): Json {
  const { $schema: _s, ...rest } = z.toJSONSchema(sandboxSettingsSchema, { target: 'draft-7', io: 'input' }) as Json;
  return tidy(rest) as Json;
}

/** Every generated file under media/, by file name. */
export function mediaSchemas(): Record<string, Json> {
  const server = embeddedEntry();
  const byName = {
    type: 'object',
    description: SERVERS_BY_NAME,
    additionalProperties: { $ref: '#/definitions/server' },
  };
  return {
    'mcp-server.schema.json': serverEntryJsonSchema(),
    'mcp.json.schema.json': {
      $schema: DRAFT_07,
      title: '.mcp.json',
      description:
        'Project MCP servers (Claude Code format). Plain JSON: no comments. Servers from this file start only after you approve them, and not in an untrusted workspace.',
      type: 'object',
      properties: { mcpServers: byName, sandbox: sandboxJsonSchema() },
      definitions: { server },
    },
    'vscode-mcp.json.schema.json': {
      $schema: DRAFT_07,
      title: '.vscode/mcp.json',
      description:
        'Workspace MCP servers (VS Code format, comments allowed). Servers from this file start only after you approve them, and not in an untrusted workspace.',
      type: 'object',
      properties: { servers: byName, inputs: inputsJsonSchema(), sandbox: sandboxJsonSchema() },
      definitions: { server },
    },
  };
}

/** The text a generated file holds (2-space JSON, final newline). */
export function schemaText(v: unknown): string {
  return `${JSON.stringify(v, null, 2)}\n`;
}
