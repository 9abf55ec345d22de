/**
 * Sampling in the editor: `sampling/createMessage` served by the Language Model API
 * (`vscode.lm.selectChatModels`), behind the core's consent wrapper. "Always for this server" is
 * the setting `mcpHost.sampling.alwaysAllow` (so it is visible and revocable there and from the tree).
 * Without a model (or by choice) the user writes the reply in a JSON editor (src/extension/inspector/sampling.ts).
 */
import * as vscode from 'vscode';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { CreateMessageRequestParams, CreateMessageResult, SamplingMessage } from '@modelcontextprotocol/server';
import {
  withSamplingConsentEntry as allowConsent,
  type ConsentAnswer,
  consentEntryName,
  type ManualSamplingReply,
  NO_MODEL,
  pickModel,
  type SamplingConsentPrompt,
  samplingConsentStatus,
  type SamplingConsentStore,
  type SamplingPort,
  withoutSamplingConsent,
  withSamplingConsent,
} from '../../core/features/index.js';
import { manualSamplingReply } from '../inspector/sampling.js';
import { readSettings, samplingAlwaysAllowSetting } from '../settings.js';
import type { ServerDefinition } from '../../core/config/index.js';

/**
 * `mcpHost.sampling.alwaysAllow` keyed per definition (core/features/sampling-consent.ts); `defOf`
 * finds the definition a request's server name stands for right now.
 */
export function settingsConsentStore(
  defOf: (server: string) => ServerDefinition | undefined,
): SamplingConsentStore & { revoke(server: string): Promise<void> } {
  return {
    isAlwaysAllowed(server) {
      const entries = readSettings().samplingAlwaysAllow;
      const def = defOf(server);
      const status = samplingConsentStatus(entries, def);
      // The user's own server named in an old, name-only entry: keyed now, so a later change asks again.
      if (status === 'legacy' && def)
        void samplingAlwaysAllowSetting.update(allowConsent(entries, def), vscode.ConfigurationTarget.Global);
      return status !== 'none';
    },
    async allowAlways(server) {
      const def = defOf(server);
      if (!def) return;
      const inspect = samplingAlwaysAllowSetting.inspect();
      await samplingAlwaysAllowSetting.update(
        allowConsent(inspect.globalValue ?? [], def),
        vscode.ConfigurationTarget.Global,
      );
    },
    async revoke(server) {
      const inspect = samplingAlwaysAllowSetting.inspect();
      // Remove it wherever it was allowed: user and workspace settings alike, keyed and bare entries.
      const g = inspect.globalValue ?? [];
      if (g.some((e) => consentEntryName(e) === server))
        await samplingAlwaysAllowSetting.update(withoutSamplingConsent(g, server), vscode.ConfigurationTarget.Global);
      const w = inspect.workspaceValue ?? [];
      if (w.some((e) => consentEntryName(e) === server))
        await samplingAlwaysAllowSetting.update(
          withoutSamplingConsent(w, server),
          vscode.ConfigurationTarget.Workspace,
        );
    },
  };
}

const ANSWERS: Record<string, ConsentAnswer> = {
  'Allow once': 'once',
  'Always for this server': 'always',
  'Write the reply myself': 'write',
  Deny: 'deny',
};
const WRITE = 'Write the reply';

export const modalConsentPrompt: SamplingConsentPrompt = {
  async ask(server, summary) {
    const picked = await vscode.window.showWarningMessage(
      `${server} wants to send this to a language model`,
      { modal: true, detail: summary.length > 3000 ? `${summary.slice(0, 3000)}…` : summary },
      ...Object.keys(ANSWERS),
    );
    return picked ? ANSWERS[picked] : undefined;
  },
  // Modal, so the request never waits on a toast nobody sees; dismissing it sends the server the error.
  async offerManualReply(server, reason) {
    const picked = await vscode.window.showWarningMessage(
      `${server} asked for a language model reply, but ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
      {
        modal: true,
        detail: 'You can write the reply yourself (as in the MCP Inspector); otherwise the server gets this error.',
      },
      WRITE,
    );
    return picked === WRITE;
  },
};

/** The user's own reply, in a JSON editor; the server's cancellation closes the wait. */
export const editorManualReply: ManualSamplingReply = {
  async write(server, params, signal) {
    const cts = new vscode.CancellationTokenSource();
    const onAbort = (): void => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await manualSamplingReply(server, params, cts.token);
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  },
};

function blocks(m: SamplingMessage): { type: string; [k: string]: unknown }[] {
  return (Array.isArray(m.content) ? m.content : [m.content]) as { type: string; [k: string]: unknown }[];
}

/** MCP messages → chat messages; tool use and tool results map onto the API's parts. */
function toChat(p: CreateMessageRequestParams): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  // The API has no system role; a leading user message is what other hosts do.
  if (p.systemPrompt) out.push(vscode.LanguageModelChatMessage.User(p.systemPrompt));
  for (const m of p.messages) {
    const parts: (
      vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart | vscode.LanguageModelToolResultPart
    )[] = [];
    for (const b of blocks(m)) {
      if (b.type === 'text') parts.push(new vscode.LanguageModelTextPart(String(b.text ?? '')));
      else if (b.type === 'tool_use')
        parts.push(new vscode.LanguageModelToolCallPart(String(b.id), String(b.name), (b.input ?? {}) as object));
      else if (b.type === 'tool_result') {
        const inner = ((b.content ?? []) as { type: string; text?: string }[]).map(
          (c) => new vscode.LanguageModelTextPart(c.type === 'text' ? (c.text ?? '') : `(${c.type})`),
        );
        parts.push(new vscode.LanguageModelToolResultPart(String(b.toolUseId), inner));
      } else
        parts.push(new vscode.LanguageModelTextPart(`(${b.type} content not sent: the editor's model API takes text)`));
    }
    out.push(
      m.role === 'assistant'
        ? vscode.LanguageModelChatMessage.Assistant(parts as never)
        : vscode.LanguageModelChatMessage.User(parts as never),
    );
  }
  return out;
}

export const lmSamplingModel: SamplingPort = {
  async createMessage(server, p, signal): Promise<CreateMessageResult> {
    const models = await vscode.lm.selectChatModels({});
    const model = pickModel(models, p.modelPreferences?.hints);
    if (!model)
      throw new ProtocolError(
        NO_MODEL,
        'No language model is available in this editor to serve the sampling request (install or sign in to a chat model provider).',
      );
    const cts = new vscode.CancellationTokenSource();
    signal.addEventListener('abort', () => cts.cancel(), { once: true });
    const options: vscode.LanguageModelChatRequestOptions = {
      justification: `${server} asked for a completion (MCP sampling)`,
      // Providers read their own option names; both common spellings carry the server's cap.
      modelOptions: {
        maxTokens: p.maxTokens,
        max_tokens: p.maxTokens,
        ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
        ...(p.stopSequences ? { stop: p.stopSequences } : {}),
      },
    };
    if (p.tools?.length) {
      options.tools = p.tools.map((t) => ({
        name: t.name,
        description: t.description ?? '',
        inputSchema: t.inputSchema,
      }));
      options.toolMode =
        p.toolChoice?.mode === 'required'
          ? vscode.LanguageModelChatToolMode.Required
          : vscode.LanguageModelChatToolMode.Auto;
    }
    try {
      const response = await model.sendRequest(toChat(p), options, cts.token);
      let text = '';
      const toolUses: { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }[] = [];
      let stopReason: 'endTurn' | 'maxTokens' | 'toolUse' = 'endTurn';
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) text += part.value;
        else if (part instanceof vscode.LanguageModelToolCallPart)
          toolUses.push({
            type: 'tool_use',
            id: part.callId,
            name: part.name,
            input: part.input as Record<string, unknown>,
          });
        // maxTokens is honoured even by a provider that ignored the option: stop reading at the cap.
        if ((await model.countTokens(text, cts.token)) >= p.maxTokens) {
          stopReason = 'maxTokens';
          cts.cancel();
          break;
        }
      }
      if (toolUses.length)
        return {
          role: 'assistant',
          model: model.id,
          stopReason: 'toolUse',
          content: toolUses,
        } as unknown as CreateMessageResult;
      return { role: 'assistant', model: model.id, stopReason, content: { type: 'text', text } };
    } catch (e) {
      if (e instanceof vscode.LanguageModelError)
        throw new ProtocolError(NO_MODEL, `The language model refused the request: ${e.message} (${e.code})`);
      throw e;
    } finally {
      cts.dispose();
    }
  },
};

export function editorSampling(store: SamplingConsentStore): SamplingPort {
  return withSamplingConsent(lmSamplingModel, store, modalConsentPrompt, editorManualReply);
}
