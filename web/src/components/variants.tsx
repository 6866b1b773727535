import {
  ActionIcon,
  Anchor,
  Badge,
  Button as MantineButton,
  type AnchorProps,
  type ButtonProps as MantineButtonProps,
} from '@mantine/core';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';

// The product's option sets (spec §5) mapped onto Mantine once, so screens never pick raw Mantine variants.
export type ButtonVariant = 'primary' | 'primary-v2' | 'secondary' | 'destructive' | 'outline' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon';

const buttonLook: Record<ButtonVariant, Pick<MantineButtonProps, 'variant' | 'color' | 'gradient'>> = {
  primary: { variant: 'filled', color: 'brand' },
  'primary-v2': { variant: 'gradient', gradient: { from: 'brand.7', to: 'indigo.7', deg: 120 } },
  secondary: { variant: 'light', color: 'brand' },
  destructive: { variant: 'filled', color: 'red.8' },
  outline: { variant: 'outline', color: 'brand' },
  ghost: { variant: 'subtle', color: 'dark' },
};

type NativeButtonProps = Omit<ComponentPropsWithoutRef<'button'>, 'color' | 'style'>;

export interface ButtonProps extends NativeButtonProps {
  variant?: ButtonVariant;
  size?: ButtonSize;
  loading?: boolean;
  leftSection?: ReactNode;
  fullWidth?: boolean;
}

/** size="icon" renders a square icon button: give it an aria-label. */
export function Button({ variant = 'primary', size = 'md', leftSection, fullWidth, ...rest }: ButtonProps) {
  const look = buttonLook[variant];
  if (size === 'icon') return <ActionIcon {...look} size="lg" data-kind={variant} {...rest} />;
  return <MantineButton {...look} size={size} leftSection={leftSection} fullWidth={fullWidth} data-kind={variant} {...rest} />;
}

export type LinkVariant = 'primary' | 'neutral';

export function TextLink({ variant = 'primary', ...rest }: AnchorProps & ComponentPropsWithoutRef<'a'> & { variant?: LinkVariant }) {
  return <Anchor c={variant === 'primary' ? 'brand' : 'gray.8'} underline={variant === 'primary' ? 'hover' : 'always'} data-kind={variant} {...rest} />;
}

export type BadgeColor = 'green' | 'red' | 'blue' | 'purple';

const badgeShade: Record<BadgeColor, string> = { green: 'green', red: 'red', blue: 'blue', purple: 'grape' };

export function StatusBadge({ color, children }: { color: BadgeColor; children: ReactNode }) {
  return (
    <Badge variant="light" color={badgeShade[color]} data-kind={color}>
      {children}
    </Badge>
  );
}
