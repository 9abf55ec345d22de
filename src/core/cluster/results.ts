/**
 * Cut results (`mcp-host-result://<id>`, gateway/result-limit.ts) kept in Redis, so a page spilled
 * by one process is read from any: one hash per result (`<prefix>result:<id>`) with a time to
 * live, written in one transaction and read in one command that fetches only the part asked for.
 * A result is bound to the person whose call made it (the token's `sub`): to anyone else it is
 * "no longer kept", the answer for an id that does not exist, so ids cannot be probed.
 */
import { randomUUID } from 'node:crypto';
import {
  partNeeded,
  readKept,
  resultId,
  type ResultItem,
  type ResultPages,
  type Spilled,
} from '../gateway/result-limit.js';
import type { RedisLink } from './link.js';

export class RedisResultPages implements ResultPages {
  constructor(
    private readonly link: RedisLink,
    private readonly keyPrefix: string,
    private readonly ttlS: number,
    /** Who the call running now is for (the service's AsyncLocalStorage); undefined: nobody known. */
    private readonly owner: () => string | undefined,
  ) {}

  private key(id: string): string {
    return `${this.keyPrefix}result:${id}`;
  }

  async put(text: string, binary: Spilled['binary'], pageChars: number, structured?: string): Promise<string> {
    const id = randomUUID();
    const fields: string[] = ['text', text, 'binary', JSON.stringify(binary), 'pageChars', String(pageChars)];
    if (structured !== undefined) fields.push('structured', structured);
    fields.push('owner', this.owner() ?? '');
    await this.link.multi([
      ['HSET', this.key(id), ...fields],
      ['EXPIRE', this.key(id), this.ttlS],
    ]);
    return id;
  }

  async read(uri: string): Promise<ResultItem[] | undefined> {
    const id = resultId(uri);
    if (id === undefined) return undefined;
    const part = partNeeded(uri);
    const [owner, pageChars, value] = await this.link.command<(string | null)[]>(
      'HMGET',
      this.key(id),
      'owner',
      'pageChars',
      part,
    );
    const mine = owner !== null && owner !== undefined && owner === (this.owner() ?? '');
    if (!mine || pageChars === null || pageChars === undefined) return readKept(uri, undefined);
    const kept: Spilled = {
      text: part === 'text' ? (value ?? '') : '',
      binary: part === 'binary' && value ? (JSON.parse(value) as Spilled['binary']) : [],
      pageChars: Number(pageChars),
      size: 0,
      ...(part === 'structured' && value !== null && value !== undefined ? { structured: value } : {}),
    };
    return readKept(uri, kept);
  }
}
