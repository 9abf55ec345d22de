/** Types of kill-tree.cjs (process-tree hygiene shared by scripts/start.mjs and the e2e harness). */
export declare function processTree(rootPid: number): number[];
export declare function isAlive(pid: number): boolean;
export declare function signalTree(pids: Iterable<number>, sig: NodeJS.Signals, group?: number): void;
export declare function killTree(rootPid: number, graceMs?: number): Promise<void>;
export declare function killTreeSync(rootPid: number): void;
