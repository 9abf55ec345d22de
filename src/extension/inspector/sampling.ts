/**
 * Sampling without a model, as the MCP Inspector allows: the user reads a server's
 * `sampling/createMessage` request and writes the reply. The sampling feature (src/extension/features/sampling.ts)
 * calls `manualSamplingReply` when no language model is available or the user chooses to answer
 * themselves. Nothing here declares the sampling capability or talks to a server.
 */
import type * as vscode from 'vscode';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/server';
import { CreateMessageResultSchema } from '@modelcontextprotocol/core';
import { checkSamplingReply, samplingReplyDocument } from '../../core/inspector/index.js';
import { editJsonDocument } from '../calls/json-editor.js';

/**
 * Lets the user write the reply to a sampling request. Resolves the reply, or undefined when they
 * cancel (close the editor or choose Cancel): the caller then answers the server with a decline.
 */
export async function manualSamplingReply(
  server: string,
  params: CreateMessageRequest['params'],
  token?: vscode.CancellationToken,
): Promise<CreateMessageResult | undefined> {
  const answer = await editJsonDocument(
    samplingReplyDocument(server, params),
    `the reply to ${server}`,
    checkSamplingReply,
    undefined,
    token,
  );
  return answer ? CreateMessageResultSchema.parse(answer.value) : undefined;
}
