import type { LinkProps } from '@tanstack/react-router';
import { defineMessages, type MessageDescriptor } from 'react-intl';

/**
 * The manage area's navigation: THE one list of its sections. A page added to the manage area gets a line
 * here (its path, label, icon and the ability it needs) and appears in the side bar of everyone allowed to
 * open it, and in the browser test that walks every entry (e2e/walk.spec.ts).
 */
export interface NavEntry {
  to: NonNullable<LinkProps['to']>;
  label: MessageDescriptor;
  /** SVG path data of the entry's icon (components/Icon). */
  icon: string;
  /** The ability of the current user's list (GET /manage/api/user) this section needs; none: every member. */
  ability?: string;
  /** Entries of a group are listed under its heading. */
  group?: 'settings';
}

const label = defineMessages({
  dashboard: { id: 'nav.dashboard', defaultMessage: 'Panel' },
  donations: { id: 'nav.donations', defaultMessage: 'Donaciones' },
  transactions: { id: 'nav.transactions', defaultMessage: 'Transacciones' },
  campaigns: { id: 'nav.campaigns', defaultMessage: 'Campañas' },
  organization: { id: 'settings.organization', defaultMessage: 'Organización' },
  users: { id: 'settings.users', defaultMessage: 'Usuarios' },
  documents: { id: 'nav.documents', defaultMessage: 'Documentos' },
  gateways: { id: 'gateways.settingsTitle', defaultMessage: 'Pasarelas de pago' },
  payouts: { id: 'payouts.title', defaultMessage: 'Liquidaciones' },
  subscription: { id: 'billing.title', defaultMessage: 'Suscripción' },
  integrations: { id: 'nav.integrations', defaultMessage: 'Integraciones' },
  agencies: { id: 'nav.agencies', defaultMessage: 'Equipos externos' },
  webhooks: { id: 'nav.webhooks', defaultMessage: 'Webhooks' },
});

export const groupLabels = defineMessages({
  settings: { id: 'nav.settings', defaultMessage: 'Configuración' },
});

export const NAV: NavEntry[] = [
  { to: '/manage/dashboard', label: label.dashboard, icon: 'M3 13h8V3H3zm10 8h8V11h-8zM3 21h8v-6H3zm10-18v6h8V3z' },
  { to: '/manage/donations', label: label.donations, icon: 'M19 14c1.5-1.5 3-3.2 3-5.5A5.5 5.5 0 0 0 16.5 3c-1.8 0-3 .5-4.5 2-1.5-1.5-2.7-2-4.5-2A5.5 5.5 0 0 0 2 8.5c0 2.3 1.5 4 3 5.5l7 7z' },
  { to: '/manage/transactions', label: label.transactions, icon: 'M7 17 17 7M7 7h10v10M3 21h18' },
  { to: '/manage/campaigns', label: label.campaigns, icon: 'M3 11l18-8-8 18-2-8zM11 13l10-10' },
  { to: '/manage/settings/agencies', label: label.agencies, icon: 'M17 21v-2a4 4 0 0 0-4-4H5a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M23 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8', ability: 'manage_agencies' },
  { to: '/manage/settings/organization', label: label.organization, icon: 'M3 21h18M5 21V7l7-4 7 4v14M9 21v-6h6v6', group: 'settings' },
  { to: '/manage/settings/users', label: label.users, icon: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8', group: 'settings' },
  { to: '/manage/settings/documents', label: label.documents, icon: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zM14 2v6h6M9 13h6M9 17h6', ability: 'manage_organization', group: 'settings' },
  { to: '/manage/settings/gateways', label: label.gateways, icon: 'M2 5h20v14H2zM2 10h20M6 15h4', ability: 'manage_organization', group: 'settings' },
  { to: '/manage/settings/payouts', label: label.payouts, icon: 'M3 21h18M3 10h18M5 6l7-3 7 3M4 10v11M20 10v11M8 14v3M12 14v3M16 14v3', ability: 'manage_organization', group: 'settings' },
  { to: '/manage/settings/subscription', label: label.subscription, icon: 'M12 2v20M17 5H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6', group: 'settings' },
  { to: '/manage/settings/integrations', label: label.integrations, icon: 'M9 3v4M15 3v4M7 7h10v4a5 5 0 0 1-10 0zM12 16v5', ability: 'manage_organization', group: 'settings' },
  { to: '/manage/settings/webhooks', label: label.webhooks, icon: 'M18 16.98h-5.99c-1.1 0-1.95.94-2.48 1.9A4 4 0 0 1 2 17c.01-.7.2-1.4.57-2M6 17l3.13-5.78c.53-.97.1-2.18-.5-3.1a4 4 0 1 1 6.89-4.06M12 6l3.13 5.73C15.66 12.7 16.9 13 18 13a4 4 0 0 1 0 8', ability: 'manage_organization', group: 'settings' },
];

/** The entries a user with these abilities may open, in the list's order. */
export const allowedEntries = (abilities: readonly string[]) => NAV.filter((e) => !e.ability || abilities.includes(e.ability));
