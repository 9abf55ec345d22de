/** The server details document (markdown): what `initialize` said, the lists, a ping. */
import type { ServerSnapshot } from '../host-api.js';
import { stripMisleadingUnicode } from '../capabilities/sanitize.js';
import { escapeInline, fence } from '../calls/render-markdown.js';
import { redactConfig } from '../redact.js';

export interface DetailsInput {
  snapshot: ServerSnapshot;
  /** The redacted `initialize` result, when the host saw it (src/core/trace TraceHub). */
  initialize?: {
    protocolVersion: string;
    capabilities?: Record<string, unknown>;
    serverInfo?: Record<string, unknown>;
    instructions?: string;
  };
  ping?: { ms: number } | { error: string };
  traced: boolean;
  extraRoots?: string[];
  lastDevChange?: string;
}

const block = (v: unknown): string => fence(JSON.stringify(v, null, 2), 'json');
// Names, versions and messages come from the server: shown as text, never as markup.
const text = (v: unknown): string => escapeInline(stripMisleadingUnicode(String(v ?? '')));

export function formatServerDetails(d: DetailsInput): string {
  const s = d.snapshot;
  const st = s.state;
  const lines = [`# ${text(s.name)}`, ''];
  lines.push(
    `- **State:** ${st.kind}${st.kind === 'failed' ? ` — ${text(st.error.message)}` : st.kind === 'needs-auth' ? ` — ${text(st.message)}` : ''}`,
  );
  if (st.kind === 'connected') {
    const info = d.initialize?.serverInfo ?? st.serverInfo;
    lines.push(`- **Server:** ${text(info.name)} ${text(info.version)}${info.title ? ` (“${text(info.title)}”)` : ''}`);
    lines.push(`- **Protocol version:** ${text(st.protocolVersion ?? d.initialize?.protocolVersion ?? 'unknown')}`);
    lines.push(`- **Connected in:** ${Math.round(st.connectMs)} ms`);
  }
  if (d.ping)
    lines.push(`- **Ping:** ${'ms' in d.ping ? `${d.ping.ms.toFixed(1)} ms` : `failed: ${text(d.ping.error)}`}`);
  lines.push(
    `- **Lists:** ${s.tools.length} tools, ${s.resources.length} resources, ${s.resourceTemplates.length} resource templates, ${s.prompts.length} prompts`,
  );
  lines.push(`- **Protocol trace:** ${d.traced ? 'on' : 'off'}`);
  lines.push(`- **Defined in:** ${text(s.definition.source.file)} (${s.definition.source.scope})`);
  if (d.extraRoots?.length) lines.push(`- **Extra roots:** ${text(d.extraRoots.join(', '))}`);
  if (d.lastDevChange) lines.push(`- **Last dev restart:** ${text(d.lastDevChange)}`);
  if (st.kind === 'connected') {
    const instructions = d.initialize?.instructions ?? st.instructions;
    // Whole (the tree's tooltip cuts them), as text: they are the server's words to a model, not markup for us.
    lines.push(
      '',
      '## Instructions',
      '',
      instructions ? fence(stripMisleadingUnicode(instructions), 'text') : '_The server sent no instructions._',
    );
    lines.push('', '## Capabilities', '', block(d.initialize?.capabilities ?? st.capabilities));
  }
  lines.push('', '## Configuration (secrets hidden)', '', block(redactConfig(s.definition.config)), '');
  return lines.join('\n');
}
