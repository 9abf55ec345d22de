/**
 * Ports and options of the protocol features beyond tools/resources/prompts (sampling, logging,
 * ping, tasks). Front ends fill `HostOptions.features`; everything here is optional.
 */
import type { CreateMessageRequestParams, CreateMessageResult, LoggingLevel } from '@modelcontextprotocol/server';
import type { RelatedCalls } from '../host-data.js';

/** A log message a server sent (`notifications/message`). */
export interface ServerLogMessage {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}

/**
 * Serves `sampling/createMessage` with a language model. Implementations throw a `SamplingError`
 * when no model is available or the user refused, so the server gets a clear error, never a hang.
 */
export interface SamplingPort {
  /** `related`: the requests in flight on that server when it asked (see connection/in-flight.ts). */
  createMessage(
    server: string,
    params: CreateMessageRequestParams,
    signal: AbortSignal,
    related?: RelatedCalls,
  ): Promise<CreateMessageResult>;
}

export interface FeatureOptions {
  /** Declares `sampling` (with tool use) when present. The CLI leaves it out. */
  sampling?: SamplingPort;
  /** Level sent with `logging/setLevel` after connecting; undefined: leave the server's default. */
  logLevel?(server: string): LoggingLevel | undefined;
  /** Every log message a server sent (after it went to the server's log). */
  onServerLog?(server: string, message: ServerLogMessage): void;
  /** Ping interval in ms; 0 or undefined: no pings. */
  pingIntervalMs?: number;
  /** Declares the tasks capability (tools run as tasks; elicitation/sampling as client tasks). Default true. */
  tasks?: boolean;
}
