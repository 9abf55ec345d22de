/** The server details document (markdown): what `initialize` said, the lists, a ping. */
import type { ServerSnapshot } from '../api.js';
import { redactConfig } from '../redact.js';

export interface DetailsInput {
  snapshot: ServerSnapshot;
  /** The redacted `initialize` result, when the host saw it (src/core/trace TraceHub). */
  initialize?: { protocolVersion: string; capabilities?: Record<string, unknown>; serverInfo?: Record<string, unknown>; instructions?: string };
  ping?: { ms: number } | { error: string };
  traced: boolean;
  extraRoots?: string[];
  lastDevChange?: string;
}

const block = (v: unknown): string => `\`\`\`json\n${JSON.stringify(v, null, 2)}\n\`\`\``;

export function formatServerDetails(d: DetailsInput): string {
  const s = d.snapshot;
  const st = s.state;
  const lines = [`# ${s.name}`, ''];
  lines.push(`- **State:** ${st.kind}${st.kind === 'failed' ? ` — ${st.error.message}` : st.kind === 'needs-auth' ? ` — ${st.message}` : ''}`);
  if (st.kind === 'connected') {
    const info = d.initialize?.serverInfo ?? st.serverInfo;
    lines.push(`- **Server:** ${String(info.name ?? '')} ${String(info.version ?? '')}${info.title ? ` (“${String(info.title)}”)` : ''}`);
    lines.push(`- **Protocol version:** ${d.initialize?.protocolVersion ?? 'unknown'}`);
    lines.push(`- **Connected in:** ${Math.round(st.connectMs)} ms`);
  }
  if (d.ping) lines.push(`- **Ping:** ${'ms' in d.ping ? `${d.ping.ms.toFixed(1)} ms` : `failed: ${d.ping.error}`}`);
  lines.push(`- **Lists:** ${s.tools.length} tools, ${s.resources.length} resources, ${s.resourceTemplates.length} resource templates, ${s.prompts.length} prompts`);
  lines.push(`- **Protocol trace:** ${d.traced ? 'on' : 'off'}`);
  lines.push(`- **Defined in:** ${s.definition.source.file} (${s.definition.source.scope})`);
  if (d.extraRoots?.length) lines.push(`- **Extra roots:** ${d.extraRoots.join(', ')}`);
  if (d.lastDevChange) lines.push(`- **Last dev restart:** ${d.lastDevChange}`);
  if (st.kind === 'connected') {
    lines.push('', '## Capabilities', '', block(d.initialize?.capabilities ?? st.capabilities));
    const instructions = d.initialize?.instructions ?? st.instructions;
    lines.push('', '## Instructions', '', instructions ? instructions : '_The server sent no instructions._');
  }
  lines.push('', '## Configuration (secrets hidden)', '', block(redactConfig(s.definition.config)), '');
  return lines.join('\n');
}
