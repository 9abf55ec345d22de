/**
 * The editor's look handed to apps as host context `styles.variables` (MCP Apps' standard CSS
 * variable names). The webview page reads the values of VS Code's theme variables (which only
 * exist inside the webview) and reports them; this maps and bounds them, so whatever arrives on
 * the pipe can only ever become short strings under known names.
 */

/** App style variable ← the VS Code theme variable whose computed value it takes. */
export const STYLE_SOURCES: Record<string, string> = {
  '--color-background-primary': '--vscode-editor-background',
  '--color-background-secondary': '--vscode-sideBar-background',
  '--color-text-primary': '--vscode-editor-foreground',
  '--color-text-secondary': '--vscode-descriptionForeground',
  '--color-text-danger': '--vscode-errorForeground',
  '--color-text-warning': '--vscode-editorWarning-foreground',
  '--color-border-primary': '--vscode-panel-border',
  '--color-ring-primary': '--vscode-focusBorder',
  '--font-sans': '--vscode-font-family',
  '--font-mono': '--vscode-editor-font-family',
  '--font-text-md-size': '--vscode-font-size',
};

const MAX_VALUE = 300;

/** Keeps known app variables whose values are short strings without markup or CSS breakers. */
export function appStyleVariables(reported: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof reported !== 'object' || reported === null) return out;
  for (const key of Object.keys(STYLE_SOURCES)) {
    const v = (reported as Record<string, unknown>)[key];
    if (typeof v !== 'string') continue;
    const value = v.trim();
    if (value === '' || value.length > MAX_VALUE || /[<>{};]/.test(value)) continue;
    out[key] = value;
  }
  return out;
}
