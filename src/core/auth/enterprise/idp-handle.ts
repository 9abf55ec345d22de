/**
 * The IdP a long-lived host (the editor) hands to `createHostAuth` once, at start, while which IdP
 * is in force can change later (a managed file or `mcpHost.enterpriseIdp` edited, read async):
 * the auth core keeps this handle, the front end swaps the session behind it.
 */
import type { EnterpriseIdp } from './cross-app.js';
import type { IdpSession } from './idp-session.js';

export class IdpHandle implements EnterpriseIdp {
  private session: IdpSession | undefined;

  get current(): IdpSession | undefined {
    return this.session;
  }

  set(session: IdpSession | undefined): void {
    this.session = session;
  }

  // Read by cross-app.ts only after idToken() returned a token, so a session is there.
  get clientId(): string {
    return this.session?.clientId ?? '';
  }

  get clientSecret(): string | undefined {
    return this.session?.clientSecret;
  }

  async idToken(): Promise<string | undefined> {
    return this.session?.idToken();
  }

  async tokenEndpoint(): Promise<string> {
    if (!this.session) throw new Error('no identity provider is configured');
    return this.session.tokenEndpoint();
  }
}
