// `npm run pack:cli`: the CLI as an npm package, `mcp-host-<version>.tgz`, which `npm install -g` and
// `npx` install with nothing else. The root package.json is the VS Code extension's manifest (its
// dependencies are bundled, its files are the .vsix's), so the CLI's package is staged apart: the
// bundled dist/cli.js, the sandbox runtime it loads beside it (dist/sandbox-runtime.js), the Redis
// client a team gateway with Redis loads (dist/redis-client.js) and the runtime's helpers
// (dist/vendor), under a package.json of its own with `bin` and no dependencies.
// No source maps, no extension bundle, no MCP Apps bridge (the CLI opens no app).
//
//   node scripts/pack-cli.mjs                 production build into dist/, then pack
//   node scripts/pack-cli.mjs --dist=DIR      pack the production build in DIR (test/support/shipped-build.ts)
//   node scripts/pack-cli.mjs --out=DIR       write the tarball to DIR (default: the repository)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(fileURLToPath(import.meta.url), '..', '..');

/** The files of dist/ the CLI runs from, relative to it. */
export const CLI_FILES = ['cli.js', 'sandbox-runtime.js', 'redis-client.js', 'vendor'];

/** The CLI package's manifest, from the root one: its name, version and licence, no dependencies. */
export function cliManifest(root) {
  return {
    name: root.name,
    version: root.version,
    description:
      'MCP Host on the command line: list, call and check MCP servers, and serve them to coding agents over stdio.',
    license: root.license,
    bin: { 'mcp-host': 'cli.js' },
    engines: { node: root.engines?.node ?? '>=20' },
    keywords: ['mcp', 'model context protocol', 'cli', 'agent'],
    ...(root.repository ? { repository: root.repository } : {}),
  };
}

const README = (version) => `# mcp-host ${version}

The command line of MCP Host (a host for Model Context Protocol servers, also a VS Code extension): list, call and check the MCP servers
your editor and agents are configured with, and serve them to coding agents over stdio.

\`\`\`sh
npx -y mcp-host doctor         # what is configured, and does each server connect
npx -y mcp-host serve          # every server behind one MCP server on stdio, for an agent
npm install -g mcp-host        # or install it: mcp-host --help
\`\`\`

Node 20 or later. The sandbox for local servers needs bubblewrap and socat on Linux
(\`apt-get install bubblewrap socat ripgrep\`); \`mcp-host doctor\` says whether it works here.
`;

/** Stages the package from `dist` and packs it into `out`; returns the tarball's path. */
export function packCli({ dist, out }) {
  const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  for (const f of CLI_FILES)
    if (!existsSync(join(dist, f))) throw new Error(`${join(dist, f)} is missing: build first (npm run build)`);
  const stage = mkdtempSync(join(tmpdir(), 'mcp-host-cli-package-'));
  try {
    for (const f of CLI_FILES)
      cpSync(join(dist, f), join(stage, f), { recursive: true, filter: (src) => !src.endsWith('.map') });
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(cliManifest(root), null, 2)}\n`);
    writeFileSync(join(stage, 'README.md'), README(root.version));
    cpSync(join(repo, 'LICENSE'), join(stage, 'LICENSE'));
    mkdirSync(out, { recursive: true });
    // --ignore-scripts: the staged package has none, and the root's prepack must not run for it.
    const name = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', out], {
      cwd: stage,
      encoding: 'utf8',
    }).trim();
    return join(out, name.split('\n').pop());
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

function main() {
  // The root's `prepack`: a plain `npm pack` there would pack the extension's manifest with its bundled
  // dependencies as install-time ones (and 5.5 MB of maps and fixtures), which no `npm install -g` can use.
  if (process.argv.includes('--refuse-root-pack')) {
    console.error(
      "npm pack: the root package.json is the VS Code extension's manifest. The CLI's npm package: npm run pack:cli (mcp-host-<version>.tgz); the extension: npm run package (.vsix).",
    );
    process.exit(1);
  }
  const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const dist = resolve(arg('dist') ?? join(repo, 'dist'));
  if (!arg('dist'))
    execFileSync(process.execPath, [join(repo, 'esbuild.config.mjs'), '--production'], { cwd: repo, stdio: 'inherit' });
  const tarball = packCli({ dist, out: resolve(arg('out') ?? repo) });
  console.log(`${tarball}\n  install: npm install -g ${tarball}\n  or run: npx -y ${tarball} --version`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
