import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

export default function NotificationsView() {
  return <Notifications position="top-right" />;
}
