/**
 * A tool call may fail with MCP error -32042 (URL elicitation required): the server needs the
 * user to finish something in a browser first, then the call can be retried. This finds those
 * requests in whatever the host threw (the SDK error may be wrapped as a HostError's cause).
 */
import { ProtocolErrorCode } from '@modelcontextprotocol/server';

export interface UrlElicitation {
  url: string;
  message: string;
  elicitationId: string;
}

const MAX_DEPTH = 4;

/** The URL elicitations an error asks for; undefined when it is not a -32042 error. */
export function urlElicitationsOf(error: unknown): UrlElicitation[] | undefined {
  let e: unknown = error;
  for (let i = 0; i < MAX_DEPTH && typeof e === 'object' && e !== null; i++) {
    const o = e as { code?: unknown; data?: unknown; cause?: unknown };
    if (o.code === ProtocolErrorCode.UrlElicitationRequired) {
      const list = (o.data as { elicitations?: unknown } | undefined)?.elicitations;
      if (!Array.isArray(list)) return [];
      return list.flatMap((x: unknown) => {
        const r = x as Partial<UrlElicitation> | null;
        return r && typeof r.url === 'string'
          ? [
              {
                url: r.url,
                message: typeof r.message === 'string' ? r.message : '',
                elicitationId: typeof r.elicitationId === 'string' ? r.elicitationId : '',
              },
            ]
          : [];
      });
    }
    e = o.cause;
  }
  return undefined;
}
