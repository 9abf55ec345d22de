/**
 * Tree elements. Each carries a stable id and the identifiers command handlers need: a context
 * menu passes the element itself, so tool/resource/prompt nodes expose the same `{server, tool}`
 * / `{server, uri}` / `{server, prompt}` fields as the arguments of their click commands.
 */
import type { ConfigProblem, Scope } from '../../core/config/index.js';
import type { CategoryKind } from './model.js';

export type TreeNode =
  | GroupNode
  | ServerNode
  | CategoryNode
  | UpstreamNode
  | ToolNode
  | ResourceNode
  | TemplateNode
  | PromptNode
  | ProblemNode;

export class GroupNode {
  readonly type = 'group';
  constructor(
    readonly id: string,
    readonly scope: Scope,
  ) {}
}

export class ServerNode {
  readonly type = 'server';
  constructor(
    readonly id: string,
    readonly server: string,
  ) {}
}

export class CategoryNode {
  readonly type = 'category';
  constructor(
    readonly id: string,
    readonly server: string,
    readonly kind: CategoryKind,
  ) {}
}

/** A server behind a gateway (upstream.ts): its tools are rows of the gateway's. */
export class UpstreamNode {
  readonly type = 'upstream';
  constructor(
    readonly id: string,
    readonly server: string,
    readonly upstream: string,
  ) {}
}

export class ToolNode {
  readonly type = 'tool';
  constructor(
    readonly id: string,
    readonly server: string,
    readonly tool: string,
    /** Set when the row sits under an upstream server's row, not the Tools folder. */
    readonly upstream?: string,
  ) {}
}

export class ResourceNode {
  readonly type = 'resource';
  constructor(
    readonly id: string,
    readonly server: string,
    readonly uri: string,
  ) {}
}

export class TemplateNode {
  readonly type = 'template';
  constructor(
    readonly id: string,
    readonly server: string,
    readonly uriTemplate: string,
  ) {}
}

export class PromptNode {
  readonly type = 'prompt';
  constructor(
    readonly id: string,
    readonly server: string,
    readonly prompt: string,
  ) {}
}

export class ProblemNode {
  readonly type = 'problem';
  constructor(
    readonly id: string,
    public problem: ConfigProblem,
  ) {}
  get file(): string {
    return this.problem.file;
  }
  get jsonPath(): (string | number)[] {
    return this.problem.jsonPath;
  }
}

export function problemId(p: ConfigProblem): string {
  return `problem/${p.file}#${JSON.stringify(p.jsonPath)}#${p.code}#${p.server ?? ''}`;
}
