import { ActionIcon, Menu } from '@mantine/core';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';

export interface MoreAction {
  label: ReactNode;
  onClick: () => void;
  destructive?: boolean;
}

function DotsIcon() {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden>
      <circle cx="12" cy="5" r="2" />
      <circle cx="12" cy="12" r="2" />
      <circle cx="12" cy="19" r="2" />
    </svg>
  );
}

/** Three-dot menu for secondary row or page actions; Mantine's Menu closes it on an outside click or Escape. */
export function MoreActionsMenu({ actions }: { actions: MoreAction[] }) {
  const intl = useIntl();
  return (
    <Menu position="bottom-end" shadow="md" withinPortal closeOnClickOutside>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={intl.formatMessage({ id: 'moreActions.label', defaultMessage: 'Más acciones' })}>
          <DotsIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((action, index) => (
          <Menu.Item key={index} onClick={action.onClick} color={action.destructive ? 'red' : undefined}>
            {action.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
