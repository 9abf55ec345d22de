/** `complete`: the server's `completion/complete` suggestions, one per line (or JSON). */
import { completeArgument, type CompletionRef } from '../../core/features/index.js';
import type { ParsedArgs } from '../args.js';
import { EXIT, usageError, type ExitCode } from '../errors.js';
import type { Session } from '../session.js';
import { connectOne, printJson } from './shared.js';

export async function complete(session: Session, a: ParsedArgs): Promise<ExitCode> {
  const [server, arg, value = ''] = a.positionals as [string, string, string | undefined];
  const snap = await connectOne(session, server);
  const ref: CompletionRef =
    a.prompt !== undefined ? { type: 'ref/prompt', name: a.prompt } : { type: 'ref/resource', uri: a.resource! };
  if (ref.type === 'ref/prompt' && !snap.prompts.some((p) => p.name === ref.name)) {
    throw usageError(
      `server "${server}" has no prompt "${ref.name}"; its prompts: ${snap.prompts.map((p) => p.name).join(', ') || '(none)'}`,
    );
  }
  if (snap.state.kind === 'connected' && snap.state.capabilities.completions === undefined) {
    throw usageError(`server "${server}" does not offer completions (no "completions" capability)`);
  }
  const result = await session.host.withClient(server, `completing ${arg}`, (client) =>
    completeArgument(client, ref, { name: arg, value }, a.context),
  );
  if (a.json) printJson(session, result);
  else {
    for (const v of result.values) session.io.stdout(`${v}\n`);
    if (result.hasMore)
      session.io.stderr(
        `mcp-host: more values exist${result.total !== undefined ? ` (${result.total} in all)` : ''}; type more of VALUE to narrow them\n`,
      );
  }
  return EXIT.ok;
}
