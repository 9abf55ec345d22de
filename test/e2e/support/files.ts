// Walking the folders a test run leaves behind (user data, logs, the workspace, HOME): finding a
// log file, searching every file for a secret that must not be there.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every regular file under `dir`, at any depth (a missing folder gives nothing). */
export function filesUnder(dir: string, out: string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    let st;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) filesUnder(p, out);
    else if (st.isFile()) out.push(p);
  }
  return out;
}
