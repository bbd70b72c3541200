import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { initials } from '@/lib/initials';

interface UserMenuProps {
  lastName: string;
  firstName: string;
  onLogout: () => void;
}

const links = [
  ['profile', paths.my.profile.getHref()],
  ['chpwd', paths.my.chpwd.getHref()],
  ['devices', paths.my.devices.getHref()],
  ['messages', paths.my.messages.getHref()],
  ['auditLogs', paths.my.auditLogs.getHref()],
  ['announcements', paths.my.announcements.getHref()],
  ['versions', paths.my.versions.getHref()],
  ['contract', paths.my.contract.getHref()],
] as const;

export function UserMenu({ lastName, firstName, onLogout }: UserMenuProps) {
  const { t } = useTranslation();
  const name = `${lastName} ${firstName}`.trim();
  return (
    <Menu position="bottom-end" width={240} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={`${t('userMenu.open')}: ${name}`} data-testid="user-menu">
          <Avatar color="blue" radius="xl" data-testid="user-initials">
            {initials(lastName, firstName)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{name}</Menu.Label>
        {links.map(([key, href]) => (
          <Menu.Item key={key} component={Link} to={href} data-testid={`user-menu-${key}`}>
            {t(`userMenu.${key}`)}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="red" onClick={onLogout} data-testid="logout">
          {t('userMenu.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
