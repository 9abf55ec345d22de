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
 *
 * "The top-level rows change" means: differ from the ones the workbench was last given. The first
 * root answer already shows the rows of a config that finished loading after the provider was
 * made, so a root refresh for that change only made the extension host forget the groups the
 * workbench was about to expand (seen at load 8: the workbench asked for their children 4.7 s
 * after the root answer, the root refresh came in between).
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
 * Whether the workbench, last given `shown` as the top-level rows (undefined: it never asked), must
 * refresh the root to show `top`. When it never asked, it will get `top` when it does.
 */
export function needsRoot(shown: readonly string[] | undefined, top: readonly string[]): boolean {
  return shown !== undefined && !same(shown, top);
}

/**
 * `changedServer` is the id of the one server row whose content changed, or undefined when the
 * set of servers or problems may have changed. `shown` is the top-level rows the workbench was last
 * given (undefined: it never asked for them).
 */
export function planRefresh(
  before: TreeShape,
  after: TreeShape,
  changedServer: string | undefined,
  shown: readonly string[] | undefined,
): RefreshPlan {
  if (needsRoot(shown, after.top)) return { kind: 'root' };
  const groupsChanged = Object.keys(after.groups).filter((g) => !same(before.groups[g] ?? [], after.groups[g] ?? []));
  if (groupsChanged.length > 0) {
    const inChanged =
      changedServer !== undefined && groupsChanged.some((g) => after.groups[g]?.includes(changedServer));
    return { kind: 'rows', ids: changedServer && !inChanged ? [...groupsChanged, changedServer] : groupsChanged };
  }
  if (changedServer !== undefined) return { kind: 'rows', ids: [changedServer] };
  return { kind: 'rows', ids: [...after.servers, ...after.problems] };
}
