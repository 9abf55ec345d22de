/** Opens a URL in the user's browser from the CLI: $BROWSER, xdg-open, open (macOS) or rundll32 (Windows). */
import { spawn } from 'node:child_process';
import { openableUrl } from '../core/auth/index.js';
import type { BrowserOpener } from '../core/ports.js';

/**
 * The program and argv that open `url`, which must already be an `openableUrl`. No shell ever
 * sees it: on Windows `cmd /c start` would parse `&`, `|`, `^` and `%` in a URL chosen by a remote
 * server (CVE-2025-6514), so the URL goes to the shell's URL handler through rundll32 instead.
 */
export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): [string, string[]] {
  if (env.BROWSER) return [env.BROWSER, [url]];
  if (platform === 'darwin') return ['open', [url]];
  if (platform === 'win32') return ['rundll32.exe', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}

export function systemBrowser(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): BrowserOpener {
  return {
    async open(url) {
      // Refuses anything but https (http on loopback) even if a caller forgot to check.
      const [cmd, args] = browserCommand(openableUrl(url, 'Opening the browser'), platform, env);
      return new Promise<boolean>((resolve) => {
        try {
          const child = spawn(cmd, args, { stdio: 'ignore', detached: true, shell: false, windowsHide: true });
          child.once('error', () => resolve(false));
          child.once('spawn', () => {
            child.unref();
            resolve(true);
          });
        } catch {
          resolve(false);
        }
      });
    },
  };
}
