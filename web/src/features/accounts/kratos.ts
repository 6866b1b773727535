import { ApiError, apiFetch } from '../../api/client';

/** Kratos' public API, proxied on our origin. */
export const KRATOS = '/.ory/kratos/public';
export const LOGIN_BROWSER = `${KRATOS}/self-service/login/browser`;
export const RECOVERY_BROWSER = `${KRATOS}/self-service/recovery/browser`;
export const SETTINGS_BROWSER = `${KRATOS}/self-service/settings/browser`;

export interface KratosMessage {
  id: number;
  text: string;
  type: 'info' | 'error' | 'success';
}
export interface KratosNode {
  type: string;
  group: string;
  attributes: {
    name?: string;
    /** Text and image nodes (the authenticator app's secret and QR code) carry an id instead of a name. */
    id?: string;
    src?: string;
    text?: { id: number; text: string };
    type?: string;
    value?: unknown;
    required?: boolean;
    disabled?: boolean;
    autocomplete?: string;
    node_type?: string;
  };
  messages: KratosMessage[];
  meta?: { label?: { id: number; text: string } };
}
export interface KratosFlow {
  id: string;
  state?: string;
  /** Login flows: aal2 asks for the second factor; refresh asks a signed-in person for the password again. */
  requested_aal?: 'aal1' | 'aal2';
  refresh?: boolean;
  ui: { action: string; method: string; nodes: KratosNode[]; messages?: KratosMessage[] };
}

export type FlowKind = 'login' | 'recovery' | 'settings';

/** Reads a browser flow; throws ApiError (410 gone, 403 / 404) when the flow can no longer be used. */
export const fetchFlow = (kind: FlowKind, id: string) =>
  apiFetch<KratosFlow>(`${KRATOS}/self-service/${kind}/flows?id=${encodeURIComponent(id)}`);

/** Where to start a fresh flow of this kind. */
export const browserStart = (kind: FlowKind) => `${KRATOS}/self-service/${kind}/browser`;

/** Where the browser comes back to after a login step: this very page. */
const here = () => encodeURIComponent(window.location.href);

/** The login flow that asks for the authenticator app's code (the session then reaches AAL2). */
export const secondFactorLogin = () => `${LOGIN_BROWSER}?aal=aal2&return_to=${here()}`;

/** The login flow that asks a signed-in person for their password again, for a sensitive change. */
export const reauthenticate = () => `${LOGIN_BROWSER}?refresh=true&return_to=${here()}`;

/** Asks Kratos for this session's logout URL (coming back to returnTo); undefined when nobody is signed in. */
export async function logoutUrl(returnTo?: string): Promise<string | undefined> {
  try {
    const query = returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : '';
    const res = await apiFetch<{ logout_url: string }>(`${KRATOS}/self-service/logout/browser${query}`);
    return res.logout_url;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return undefined;
    throw error;
  }
}

/** Kratos flow errors that mean "start again": expired, already used, or the wrong browser. */
export function flowIsGone(error: unknown) {
  return error instanceof ApiError && [403, 404, 410].includes(error.status);
}

export function csrfOf(flow: KratosFlow) {
  const node = flow.ui.nodes.find((n) => n.attributes.name === 'csrf_token');
  return typeof node?.attributes.value === 'string' ? node.attributes.value : '';
}

/** Messages of the flow and of its nodes, for one alert above the form. */
export function flowMessages(flow: KratosFlow): KratosMessage[] {
  return [...(flow.ui.messages ?? []), ...flow.ui.nodes.flatMap((n) => n.messages ?? [])];
}

/** The signed-in person's e-mail, or undefined when nobody is signed in. */
export async function sessionEmail(): Promise<string | undefined> {
  try {
    const res = await apiFetch<{ identity: { traits: { email?: string } } }>(`${KRATOS}/sessions/whoami`);
    return res.identity.traits.email;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return undefined;
    throw error;
  }
}

/** Where to send someone to sign in and come back to this page. */
export const loginAndReturn = () => `${LOGIN_BROWSER}?return_to=${encodeURIComponent(window.location.href)}`;
