/**
 * Which rows of the servers tree to refresh after a change. Kept free of `vscode` so it is unit
 * tested on plain Node.
 *
 * Why not simply refresh the root: since VS Code 1.13x a root refresh drops every element the
 * extension host knows at once, while the workbench may still be asking for the children of a row
 * it rendered a moment ago (groups are expanded by default, so it does at once). That request then
 * fails with "No tree item with id '1/group/project' found." in the extension host log. So the root
 * is refreshed only when the top-level rows themselves change, and otherwise only the rows that
 * exist and may show something new.
 */

/** What decides the rows of the tree, split into the top level and everything under it. */
export interface TreeShape {
  /** The top-level rows: group ids when grouped, else server ids; then problem ids. */
  top: string[];
  /** Group id → its server ids (empty when not grouped). */
  groups: Record<string, string[]>;
  /** Every server row id. */
  servers: string[];
  /** Every problem row id. */
  problems: string[];
}

export type RefreshPlan = { kind: 'root' } | { kind: 'rows'; ids: string[] };

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * `changedServer` is the id of the one server row whose content changed, or undefined when the
 * set of servers or problems may have changed.
 */
export function planRefresh(before: TreeShape, after: TreeShape, changedServer: string | undefined): RefreshPlan {
  if (!same(before.top, after.top)) return { kind: 'root' };
  const groupsChanged = Object.keys(after.groups).filter((g) => !same(before.groups[g] ?? [], after.groups[g] ?? []));
  if (groupsChanged.length > 0) {
    const inChanged =
      changedServer !== undefined && groupsChanged.some((g) => after.groups[g]?.includes(changedServer));
    return { kind: 'rows', ids: changedServer && !inChanged ? [...groupsChanged, changedServer] : groupsChanged };
  }
  if (changedServer !== undefined) return { kind: 'rows', ids: [changedServer] };
  return { kind: 'rows', ids: [...after.servers, ...after.problems] };
}
