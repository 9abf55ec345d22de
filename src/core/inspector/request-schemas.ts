/**
 * The spec's client→server requests and the JSON Schema of each one's params, taken from the SDK's
 * own zod schemas (so they follow the SDK's protocol version): method completion and params
 * completion for "Send Request…".
 */
import * as z from 'zod/v4';
import { ClientRequestSchema } from '@modelcontextprotocol/core';

interface RequestOption {
  shape: { method: { value: string }; params?: z.ZodType };
}

function options(): RequestOption[] {
  return (ClientRequestSchema as unknown as { options: RequestOption[] }).options;
}

/** Every request method a client may send, in the SDK's order. */
export function requestMethods(): string[] {
  return options().map((o) => o.shape.method.value);
}

/** JSON Schema (draft-07 marker, for editors) of a method's params; undefined for an unknown method. */
export function paramsSchema(method: string): Record<string, unknown> | undefined {
  const o = options().find((x) => x.shape.method.value === method);
  if (!o?.shape.params) return undefined;
  const { $schema: _drop, ...schema } = z.toJSONSchema(o.shape.params, {
    unrepresentable: 'any',
    io: 'input',
  }) as Record<string, unknown>;
  return { $schema: 'http://json-schema.org/draft-07/schema#', ...schema };
}

/** A starting params object for a method: its required properties with empty values. */
export function paramsTemplate(method: string): Record<string, unknown> {
  const s = paramsSchema(method);
  const props = (s?.properties ?? {}) as Record<string, { type?: string }>;
  const required = (s?.required ?? []) as string[];
  const empty = (t: string | undefined): unknown =>
    t === 'object' ? {} : t === 'array' ? [] : t === 'number' || t === 'integer' ? 0 : t === 'boolean' ? false : '';
  return Object.fromEntries(required.map((k) => [k, empty(props[k]?.type)]));
}
