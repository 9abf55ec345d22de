/**
 * `mcp-host --help`, laid out from the command and option tables (options.ts): a command's rows
 * with their text from column 36, the global options with theirs from column 21.
 */
import { COMMAND_TABLE, OPTION_TABLE, type Command, type OptionSpec } from './options.js';

const COMMAND_COLUMN = 34;
const OPTION_COLUMN = 19;

/** Usage of one command: its arguments, then the options it takes, in the table's order. */
export function usageLine(c: Command): string {
  const { required, optional } = COMMAND_TABLE[c];
  const opts = OPTION_TABLE.filter((o) => o.commands?.includes(c)).map((o) =>
    o.value === undefined ? `[${o.name}]` : `[${o.name} ${o.value}]`,
  );
  return [c, ...required, ...optional.map((o) => `[${o}]`), ...opts].join(' ');
}

/** A left column and its text; text that does not fit beside the left column starts below it. */
function row(left: string, text: string[], width: number): string[] {
  const indent = ' '.repeat(width + 2);
  if (text.length === 0) return [`  ${left}`];
  const [first, ...more] = text;
  const head = left.length < width - 1 ? [`  ${left.padEnd(width)}${first}`] : [`  ${left}`, `${indent}${first}`];
  return [...head, ...more.map((t) => `${indent}${t}`)];
}

function commandRows(): string[] {
  return (Object.keys(COMMAND_TABLE) as Command[]).flatMap((c) =>
    COMMAND_TABLE[c].help.flatMap(([left, ...text], i) =>
      row(i === 0 && left === '' ? usageLine(c) : left!, text, COMMAND_COLUMN),
    ),
  );
}

function optionRows(): string[] {
  const label = (o: OptionSpec): string => (o.value === undefined ? o.name : `${o.name} ${o.value}`);
  const described = OPTION_TABLE.filter((o) => !o.commands && o.help);
  const lines = described.flatMap((o) => {
    const l = label(o);
    if (l.length < OPTION_COLUMN) return [`  ${l.padEnd(OPTION_COLUMN)}${o.help!}`];
    // A label a little past the column keeps its text beside it; a longer one puts it below.
    if (l.length <= OPTION_COLUMN + 1) return [`  ${l}  ${o.help!}`];
    return [`  ${l}`, `${' '.repeat(OPTION_COLUMN + 2)}${o.help!}`];
  });
  const bare = OPTION_TABLE.filter((o) => !o.commands && o.help === '').map((o) => o.name);
  return [...lines, `  ${bare.join(', ')}`];
}

export const HELP = `mcp-host: a headless host for Model Context Protocol servers

usage: mcp-host <command> [arguments] [options]

commands:
${commandRows().join('\n')}

options (anywhere on the line):
${optionRows().join('\n')}

the folder's own servers (.mcp.json, .vscode/mcp.json) start only once approved: on a terminal the
CLI asks first, listing what each would run; without one (an agent, a pipe) it starts none of them
and list/doctor say so. Approvals are shared with the editor. Your user settings, --config files
and the managed file's servers start without asking: you or your administrator wrote them.

exit codes: 0 ok, 1 the tool returned an error, 2 usage, argument or config error,
            3 connection failure or timeout

servers are offered the workspace folder as their root; a server's questions (elicitation) are
asked in the terminal, and declined when stdin is not a terminal. Sampling is not offered.

environment: MCP_TIMEOUT (connect ms), MCP_TOOL_TIMEOUT (call ms), MCP_HOST_LOG (error|warn|info|debug),
             MCP_HOST_INPUT_<ID> (value for \${input:id}), MCP_HOST_BLOB_DIR (where binary contents go),
             MCP_HOST_REGISTRY_URL (registry), MCP_HOST_USER_SETTINGS (user settings.json),
             MCP_HOST_ALLOW_PROJECT_SERVERS=1 (as --allow-project-servers),
             MCP_HOST_SERVE_SHARE=0 (as serve --own-servers), MCP_HOST_SERVE_GRACE_MS (shared gateway's grace),
             MCP_HOST_GATEWAY_FAST_PATH=0 (the gateway's forwarding fast path off)
`;
