/**
 * What a tool or a UI resource says about its app, as the apps subsystem offers it. The reading
 * itself lives below every subsystem (`core/app-meta.ts`): the capabilities' tool wrapping reads a
 * tool's `_meta.ui` too, and must not import `apps/` (ARCHITECTURE.md, "Layers").
 */
export * from '../app-meta.js';
