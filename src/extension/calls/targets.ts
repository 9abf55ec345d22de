/**
 * What a command was started on: nothing (palette), a tree node, or a plain object from a
 * command link / another extension. Tree nodes carry the same `{server, tool}`,
 * `{server, uri}`, `{server, uriTemplate}`, `{server, prompt}` fields as plain objects.
 */

export interface Target {
  server?: string;
  tool?: string;
  uri?: string;
  uriTemplate?: string;
  prompt?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Reads the fields a command understands from whatever it was given; unknown shapes give `{}`. */
export function readTarget(arg: unknown): Target {
  if (typeof arg !== 'object' || arg === null) return {};
  const o = arg as Record<string, unknown>;
  // A HostTool / HostPrompt (exported API) names itself with `name`.
  const tool = str(o.tool) ?? (str(o.qualifiedName) ? str(o.name) : undefined);
  const prompt = str(o.prompt) ?? (Array.isArray(o.arguments) ? str(o.name) : undefined);
  return { server: str(o.server), tool, uri: str(o.uri), uriTemplate: str(o.uriTemplate), prompt };
}
