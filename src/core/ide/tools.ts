/**
 * The IDE protocol's tools (docs/ide-servers.md), registered on one McpServer per
 * agent connection. Names, argument names and result shapes follow the protocol agents already
 * speak, so they stay exactly as the agent expects (including `close_tab`'s snake case).
 */
import type { McpServer, CallToolResult } from '@modelcontextprotocol/server';
import * as z from 'zod/v4';
import type { Logger } from '../ports.js';
import type { DiffOutcome, EditorPort, IdeSelection } from './editor-port.js';
import { errorMessage } from '../errors.js';

/** What the tools need besides the editor: the server keeps the latest selection across focus changes. */
export interface IdeToolContext {
  editor: EditorPort;
  latestSelection(): IdeSelection | undefined;
  logger: Logger;
}

function text(...parts: string[]): CallToolResult {
  return { content: parts.map((t) => ({ type: 'text' as const, text: t })) };
}

/**
 * Compact JSON: results go to a model, where indentation only costs tokens, and a workspace's
 * diagnostics can run to megabytes (indenting 20,000 of them doubled the payload).
 */
function json(value: unknown): CallToolResult {
  return text(JSON.stringify(value));
}

function error(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** Resolves when `signal` aborts; never rejects. */
function aborted(signal: AbortSignal): Promise<DiffOutcome> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve({ kind: 'closed' });
    else signal.addEventListener('abort', () => resolve({ kind: 'closed' }), { once: true });
  });
}

const readOnly = { readOnlyHint: true, destructiveHint: false, openWorldHint: false } as const;

/**
 * A tool that only reads what the editor already holds: synchronous, no signal, no side effect.
 * These are also answered on the IDE server's direct path (direct-calls.ts), so each is defined once
 * here for both.
 */
export interface ReadTool<S extends z.ZodObject = z.ZodObject> {
  description: string;
  inputSchema: S;
  /** The tool's answer: its result is one text block, this value's compact JSON (json() above). */
  value(args: z.infer<S>): unknown;
}

const readTool = <S extends z.ZodObject>(t: ReadTool<S>): ReadTool => t as unknown as ReadTool;

const noArgs = z.object({});

/** The read-only tools by name. */
export function readOnlyTools(ctx: IdeToolContext): ReadonlyMap<string, ReadTool> {
  const { editor } = ctx;
  return new Map([
    [
      'getDiagnostics',
      readTool({
        description:
          'Diagnostics (errors, warnings, hints) the editor knows, for one file or for every file that has some. Positions are 0-based.',
        inputSchema: z.object({
          uri: z.string().optional().describe('File URI (file:///...) or absolute path; omit for all files'),
        }),
        value: ({ uri }) => editor.diagnostics(uri),
      }),
    ],
    [
      'getCurrentSelection',
      readTool({
        description: 'The selection in the active editor.',
        inputSchema: noArgs,
        value: () => {
          const sel = editor.currentSelection();
          return sel ? { success: true, ...sel } : { success: false, message: 'No active editor found' };
        },
      }),
    ],
    [
      'getLatestSelection',
      readTool({
        description: 'The most recent selection in any editor, even after focus moved away (e.g. to the terminal).',
        inputSchema: noArgs,
        value: () => {
          const sel = ctx.latestSelection() ?? editor.currentSelection();
          return sel ? { success: true, ...sel } : { success: false, message: 'No selection available' };
        },
      }),
    ],
    [
      'getOpenEditors',
      readTool({
        description: 'The open editor tabs.',
        inputSchema: noArgs,
        value: () => ({ tabs: editor.openEditors() }),
      }),
    ],
    [
      'getWorkspaceFolders',
      readTool({
        description: 'The workspace folders open in the editor.',
        inputSchema: noArgs,
        value: () => {
          const folders = editor.workspaceFolders();
          return { success: true, folders, rootPath: folders[0]?.path ?? null };
        },
      }),
    ],
    [
      'checkDocumentDirty',
      readTool({
        description: 'Whether an open document has unsaved changes.',
        inputSchema: z.object({ filePath: z.string().min(1).describe('Absolute path of the document') }),
        value: ({ filePath }) => {
          const state = editor.documentState(filePath);
          if (!state) return { success: false, message: `Document not open: ${filePath}` };
          return { success: true, filePath, isDirty: state.isDirty, isUntitled: state.isUntitled };
        },
      }),
    ],
  ]);
}

/** Registers every tool; `readers` is readOnlyTools(ctx), shared with the direct path. */
export function registerIdeTools(
  server: McpServer,
  ctx: IdeToolContext,
  readers: ReadonlyMap<string, ReadTool> = readOnlyTools(ctx),
): void {
  for (const [name, t] of readers)
    server.registerTool(
      name,
      { description: t.description, inputSchema: t.inputSchema, annotations: readOnly },
      (args: Record<string, unknown>) => json(t.value(args)),
    );
  registerOpenTools(server, ctx);
  registerTabTools(server, ctx);
}

/** openFile and openDiff: the tools that put something in front of the user. */
function registerOpenTools(server: McpServer, ctx: IdeToolContext): void {
  const { editor } = ctx;
  server.registerTool(
    'openFile',
    {
      description: 'Open a file in the editor, optionally selecting the text from startText to endText.',
      inputSchema: z.object({
        filePath: z.string().min(1).describe('Absolute path, or relative to the first workspace folder'),
        preview: z.boolean().default(false).describe('Open as a preview tab'),
        startText: z.string().optional().describe('Select from the first occurrence of this text'),
        endText: z.string().optional().describe('...to the end of the first occurrence of this text after it'),
        selectToEndOfLine: z.boolean().default(false).describe('Extend the selection to the end of its last line'),
        makeFrontmost: z
          .boolean()
          .default(true)
          .describe('Focus the editor; false opens it in the background and returns details'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args) => {
      const opened = await editor.openFile({
        filePath: args.filePath,
        preview: args.preview,
        startText: args.startText,
        endText: args.endText,
        selectToEndOfLine: args.selectToEndOfLine,
        makeFrontmost: args.makeFrontmost,
      });
      if (args.makeFrontmost) return text(`Opened file: ${opened.filePath}`);
      return json({
        success: true,
        filePath: opened.filePath,
        languageId: opened.languageId,
        lineCount: opened.lineCount,
      });
    },
  );

  server.registerTool(
    'openDiff',
    {
      description:
        'Show a diff of a proposed change for the user to accept or reject. Blocks until the user decides: returns FILE_SAVED and the final contents (with any edits the user made to the proposal), or DIFF_REJECTED and the tab name. The editor does not write the file: on FILE_SAVED the caller writes the returned contents to new_file_path.',
      inputSchema: z.object({
        old_file_path: z.string().min(1).describe('The file as it is now (may not exist yet)'),
        new_file_path: z.string().min(1).describe('Where the caller will write the accepted contents'),
        new_file_contents: z.string().describe('The proposed contents'),
        tab_name: z.string().min(1).describe('Title of the diff tab; close_tab uses it'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    async (args, extra) => {
      // The SDK aborts the request's signal when the agent disconnects or cancels; the diff must not outlive it.
      const outcome = await Promise.race([
        editor.openDiff(
          {
            oldFilePath: args.old_file_path,
            newFilePath: args.new_file_path,
            newFileContents: args.new_file_contents,
            tabName: args.tab_name,
          },
          extra.mcpReq.signal,
        ),
        aborted(extra.mcpReq.signal),
      ]);
      ctx.logger.info(`IDE diff "${args.tab_name}": ${outcome.kind}`);
      if (outcome.kind === 'accepted') return text('FILE_SAVED', outcome.contents);
      return text('DIFF_REJECTED', args.tab_name);
    },
  );
}

/** Saving, closing tabs and running notebook code: the tools that change the editor's state. */
function registerTabTools(server: McpServer, ctx: IdeToolContext): void {
  const { editor } = ctx;
  server.registerTool(
    'saveDocument',
    {
      description: 'Save an open document.',
      inputSchema: z.object({ filePath: z.string().min(1).describe('Absolute path of the document') }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ filePath }) => {
      const saved = await editor.saveDocument(filePath);
      if (!saved) return json({ success: false, message: `Document not open: ${filePath}` });
      return json({ success: true, filePath, saved: true, message: 'Document saved successfully' });
    },
  );

  server.registerTool(
    'close_tab',
    {
      description: 'Close the tab with this name (e.g. a diff opened by openDiff).',
      inputSchema: z.object({ tab_name: z.string().min(1) }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async ({ tab_name }) => {
      await editor.closeTab(tab_name);
      return text('TAB_CLOSED');
    },
  );

  server.registerTool(
    'closeAllDiffTabs',
    {
      description: 'Close every diff tab opened through openDiff.',
      inputSchema: z.object({}),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async () => text(`CLOSED_${await editor.closeAllDiffTabs()}_DIFF_TABS`),
  );

  server.registerTool(
    'executeCode',
    {
      description:
        "Run Python code in the active Jupyter notebook's kernel and return its output. Needs an open notebook with a kernel.",
      inputSchema: z.object({ code: z.string().min(1).describe('The code to run') }),
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
    },
    async ({ code }, extra) => {
      try {
        const outputs = await editor.executeCode(code, extra.mcpReq.signal);
        if (outputs.length === 0) return text('(no output)');
        return {
          content: outputs.map((o) =>
            o.type === 'text'
              ? { type: 'text' as const, text: o.text }
              : { type: 'image' as const, mimeType: o.mimeType, data: o.data },
          ),
        };
      } catch (err) {
        return error(errorMessage(err));
      }
    },
  );
}
