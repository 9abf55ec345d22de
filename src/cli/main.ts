// `mcp-host`: the headless front end over the same core.
const [, , ...argv] = process.argv;
if (argv.includes('--version')) {
  process.stdout.write('0.1.0\n');
  process.exit(0);
}
process.stderr.write('usage: mcp-host <list|tools|call|resources|read|prompts|prompt|doctor> [options]\n');
process.exit(2);
