// A deliberate type error: the TypeScript extension reports it, and agents connected to
// MCP Host's IDE server can read it with getDiagnostics.
const greeting: number = 'hello';

export function greet(name: string): string {
  return `${String(greeting)}, ${name}`;
}
