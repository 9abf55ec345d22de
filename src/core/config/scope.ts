/** Config scopes, lowest precedence first. */
export const SCOPES = ['managed', 'user', 'discovered', 'workspace', 'project', 'dynamic'] as const;
export type Scope = (typeof SCOPES)[number];
