/**
 * A tool's `structuredContent` checked against its `outputSchema` by the host, where the SDK's
 * Client cannot: it checks only tools it finds in its own response cache, and the host lists
 * without filling that cache (connection/connect.ts `listCacheMode`) since it keeps the lists
 * itself. Same rules and messages as the SDK's check, so a caller sees no difference: a schema that
 * does not compile refuses the call before it is sent, a result without structured content or one
 * that breaks the schema is an error, an error result is never checked.
 *
 * Compiled on a tool's first call, not when the list arrives (most tools of a server are never
 * called), once per schema object: a list's identical schemas are one object (wrap.ts interns them).
 */
import { ProtocolError, ProtocolErrorCode, type JsonSchemaValidator, type Tool } from '@modelcontextprotocol/client';
import type { HostTool } from '../host-data.js';
import { hostJsonSchemaValidator } from './sdk-validator.js';

type Compiled = { ok: true; validate: JsonSchemaValidator<unknown> } | { ok: false; message: string };

const compiled = new WeakMap<object, Compiled>();

function compile(schema: Record<string, unknown>): Compiled {
  let c = compiled.get(schema);
  if (!c) {
    try {
      c = { ok: true, validate: hostJsonSchemaValidator.getValidator(schema as never) };
    } catch (err) {
      c = { ok: false, message: (err instanceof Error ? err.message : String(err)).slice(0, 200) };
    }
    compiled.set(schema, c);
  }
  return c;
}

/**
 * The check of `tool`'s results, or undefined when it declares no output schema. Throws, before
 * the call, when the schema does not compile.
 */
export function outputCheckFor(
  tool: Pick<HostTool, 'name' | 'outputSchema'>,
): ((result: { structuredContent?: unknown; isError?: unknown }) => void) | undefined {
  if (!tool.outputSchema) return undefined;
  const c = compile(tool.outputSchema);
  if (!c.ok)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Tool '${tool.name}' has an invalid outputSchema: ${c.message}`,
    );
  const validate = c.validate;
  return (result) => {
    if (result.isError) return;
    if (result.structuredContent === undefined)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        `Tool ${tool.name} has an output schema but did not return structured content`,
      );
    const r = validate(result.structuredContent);
    if (!r.valid)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Structured content does not match the tool's output schema: ${r.errorMessage}`,
      );
  };
}

const definitions = new WeakMap<HostTool, Tool>();

/**
 * The input schema given with it: the SDK reads a `toolDefinition`'s input schema only for the
 * `x-mcp-header` mirroring of a 2026-07-28 Streamable HTTP connection, which keeps the SDK's own list
 * and is not given one (HostClient.keepsListInSdkCache); anywhere else it would walk the tool's real
 * schema on every call for headers nothing sends.
 */
const NO_HEADERS: Tool['inputSchema'] = Object.freeze({ type: 'object' as const });

/**
 * The tool as the SDK's `callTool` is told it (`toolDefinition`) where the host checks the output:
 * without it the SDK looks the tool up in its response cache on every call (twice on 2026-07-28:
 * output validator and header declarations), a lookup that never finds the lists the host keeps;
 * without `outputSchema`, so it does not check the result a second time.
 */
export function sdkToolDefinition(tool: HostTool): Tool {
  let d = definitions.get(tool);
  if (!d) {
    d = { name: tool.name, inputSchema: NO_HEADERS };
    definitions.set(tool, d);
  }
  return d;
}
