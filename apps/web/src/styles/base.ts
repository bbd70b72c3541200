/**
 * Mantine CSS of the first screen only (the shell and /auth/login), imported per component so the
 * login route stays small. The order follows @mantine/core/styles.css (a component's styles come
 * after those it builds on). Every other screen loads the full stylesheet (./full.ts) lazily.
 * Not here: default-css-variables.css (MantineProvider writes every variable itself, see
 * app/provider.tsx) and Combobox.css (the language switch draws its own chevron).
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/LoadingOverlay.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Title.css';
