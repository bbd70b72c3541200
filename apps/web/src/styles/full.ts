/**
 * The whole Mantine stylesheet, in its own lazily loaded chunk: imported by every route except the
 * login screen (whose components are covered by ./base.ts), so screens may use any component.
 */
import '@mantine/core/styles.css';
