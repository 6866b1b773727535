import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';

/** How an organisation links its account: MercadoPago's OAuth redirect, or a CentralPos authorization code. */
export type ConnectKind = 'oauth' | 'code';

export interface GatewayInfo {
  name: string;
  description: ReactNode;
  connect: ConnectKind;
  /** The illustration's accent. */
  color: string;
}

/**
 * The regular gateways this screen knows how to connect. The API may list others (the integrated payments of
 * issue #13); they are not shown here until their own block exists.
 */
const GATEWAYS: Record<string, GatewayInfo> = {
  mercadopago: {
    name: 'Mercado Pago',
    description: <FormattedMessage id="gateways.mercadopago.body" defaultMessage="Conecta tu cuenta de Mercado Pago y cobra donaciones únicas y mensuales con tarjeta." />,
    connect: 'oauth',
    color: '#009ee3',
  },
  centralpos: {
    name: 'CentralPos',
    description: <FormattedMessage id="gateways.centralpos.body" defaultMessage="Usa tu código de autorización de CentralPos para cobrar con tarjetas de crédito y débito." />,
    connect: 'code',
    color: '#7c3aed',
  },
};

export const gatewayInfo = (id: string): GatewayInfo | undefined => (Object.hasOwn(GATEWAYS, id) ? GATEWAYS[id] : undefined);

export const gatewayName = (id: string) => gatewayInfo(id)?.name ?? id;

/** A card over the gateway's accent: decorative, the block's title names the gateway. */
export function GatewayIllustration({ id, size = 56 }: { id: string; size?: number }) {
  const info = gatewayInfo(id);
  const color = info?.color ?? '#64748b';
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden focusable="false" style={{ flexShrink: 0 }}>
      <rect width="64" height="64" rx="16" fill={color} opacity="0.12" />
      <rect x="10" y="18" width="40" height="28" rx="5" fill="#fff" stroke={color} strokeWidth="2.5" />
      <path d="M10 26h40" stroke={color} strokeWidth="5" />
      <path d="M16 38h10" stroke={color} strokeWidth="2.5" strokeLinecap="round" />
      {info?.connect === 'code' ? (
        <g>
          <circle cx="48" cy="44" r="10" fill={color} />
          <path d="M44 44h8M48 40v8" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" />
        </g>
      ) : (
        <g>
          <circle cx="48" cy="44" r="10" fill={color} />
          <path d="m43.5 44 3 3 6-6" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
        </g>
      )}
    </svg>
  );
}
