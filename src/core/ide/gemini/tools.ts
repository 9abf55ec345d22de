/**
 * The tools Gemini CLI calls on its IDE server (server.ts): `openDiff` and `closeDiff`, whose
 * outcome goes back as `ide/diffAccepted` / `ide/diffRejected` to the session that opened the diff
 * (unless the agent closed it itself), and `getDiagnostics`.
 */
import { basename, isAbsolute } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Logger } from '../../ports.js';
import { errorMessage } from '../../errors.js';
import type { DiffOutcome, EditorPort } from '../editor-port.js';

interface OpenDiff<S> {
  session: S;
  newContent: string;
  controller: AbortController;
  outcome: Promise<DiffOutcome>;
  /** closeDiff (or a newer openDiff for the same file) ended it: Gemini CLI expects no notification then. */
  closedByAgent: boolean;
}

function text(t: string): { content: { type: 'text'; text: string }[] } {
  return { content: [{ type: 'text', text: t }] };
}

function toolError(message: string): { content: { type: 'text'; text: string }[]; isError: true } {
  return { ...text(message), isError: true };
}

/** The diffs open in the editor, one per file, each tied to the session (`S`) that opened it. */
export class GeminiDiffs<S> {
  private readonly open = new Map<string, OpenDiff<S>>();

  constructor(
    private readonly editor: EditorPort,
    private readonly logger: Logger,
    private readonly notify: (session: S, method: string, params: object) => void,
  ) {}

  show(session: S, filePath: string, newContent: string): void {
    const previous = this.open.get(filePath);
    // One diff per file, as in the companion; the CLI's own mutex makes this rare.
    if (previous) this.end(previous);
    const controller = new AbortController();
    const outcome = this.editor
      .openDiff(
        {
          oldFilePath: filePath,
          newFilePath: filePath,
          newFileContents: newContent,
          tabName: `${basename(filePath)} ↔ Gemini CLI`,
        },
        controller.signal,
      )
      .catch((err: unknown): DiffOutcome => {
        this.logger.error(`Gemini IDE server: could not show the diff for ${filePath}: ${errorMessage(err)}`);
        return { kind: 'closed' };
      });
    const d: OpenDiff<S> = { session, newContent, controller, outcome, closedByAgent: false };
    this.open.set(filePath, d);
    void outcome.then((o) => {
      if (this.open.get(filePath) === d) this.open.delete(filePath);
      if (d.closedByAgent) return;
      if (o.kind === 'accepted') this.notify(session, 'ide/diffAccepted', { filePath, content: o.contents });
      else this.notify(session, 'ide/diffRejected', { filePath });
    });
  }

  /** Closes the file's diff for the agent; what the proposal side holds then, or null with no diff open. */
  async close(filePath: string): Promise<string | null> {
    const d = this.open.get(filePath);
    if (!d) return null;
    this.end(d);
    const outcome = await d.outcome;
    // What the proposal side holds now, with the user's edits: the CLI writes this when the user accepted in the terminal.
    const content =
      outcome.kind === 'accepted' ? outcome.contents : outcome.kind === 'closed' ? outcome.contents : undefined;
    return content ?? d.newContent;
  }

  /** Ends every open diff (of one session, when given) without notifying anyone. */
  closeAll(session?: S): void {
    for (const d of this.open.values()) if (session === undefined || d.session === session) this.end(d);
  }

  private end(d: OpenDiff<S>): void {
    d.closedByAgent = true;
    d.controller.abort();
  }
}

export function registerGeminiTools<S>(mcp: McpServer, editor: EditorPort, diffs: GeminiDiffs<S>, session: S): void {
  mcp.registerTool(
    'openDiff',
    {
      description:
        '(IDE Tool) Open a diff view to create or modify a file. Returns a notification once the diff has been accepted or rejected.',
      inputSchema: z.object({
        filePath: z.string().describe('Absolute path of the file'),
        newContent: z.string().describe('The proposed new content'),
      }),
    },
    ({ filePath, newContent }) => {
      if (!isAbsolute(filePath)) return toolError(`openDiff needs an absolute path, got "${filePath}"`);
      diffs.show(session, filePath, newContent);
      return { content: [] };
    },
  );
  mcp.registerTool(
    'closeDiff',
    {
      description: '(IDE Tool) Close an open diff view for a specific file.',
      inputSchema: z.object({
        filePath: z.string().describe('Absolute path of the file'),
        suppressNotification: z.boolean().optional(),
      }),
    },
    async ({ filePath }) => text(JSON.stringify({ content: await diffs.close(filePath) })),
  );
  mcp.registerTool(
    'getDiagnostics',
    {
      description:
        'Diagnostics (errors, warnings, hints) the editor knows, for one file or for every file that has some. Positions are 0-based.',
      inputSchema: z.object({
        uri: z.string().optional().describe('File URI (file:///...) or absolute path; omit for all files'),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false },
    },
    ({ uri }) => text(JSON.stringify(editor.diagnostics(uri))),
  );
}
