/** Opens a URL in the user's browser from the CLI: xdg-open, open (macOS) or start (Windows). */
import { spawn } from 'node:child_process';
import type { BrowserOpener } from '../core/ports.js';

export function systemBrowser(env: Record<string, string | undefined> = process.env): BrowserOpener {
  return {
    open(url) {
      // The URL is passed as one argument, never through a shell that would interpret it,
      // except on Windows where `start` is a cmd built-in (its empty "" is the window title).
      const [cmd, args] =
        env.BROWSER
          ? [env.BROWSER, [url]]
          : process.platform === 'darwin'
            ? ['open', [url]]
            : process.platform === 'win32'
              ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
              : ['xdg-open', [url]];
      return new Promise<boolean>((resolve) => {
        try {
          const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
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
