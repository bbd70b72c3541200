import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { COMMAND_MODES, type CommandMappingEntry, type OperatorCommandMode, type RobotAction } from '@portal/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '@/lib/i18n';
import { showNotification } from '@/lib/notify';
import { useRobotCommandMapping } from '../api/get-robot-command-mapping';
import { useRobotCommand } from '../api/send-robot-command';

/** A key's name as printed on the keyboard (`KeyG` -> G, `Digit1` -> 1). */
const keyName = (code: string): string => code.replace(/^Key/, '').replace(/^Digit/, '');

/** The operator screen's robot actions (`useRobotActions`): resolves to null when the robot got the action. */
export interface MappedActionRunner {
  run: (action: RobotAction, success?: string) => Promise<string | null>;
}

/** Typing in a field is not a mapped key. */
const typing = (target: EventTarget | null) => {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
};

const gamepads = (): ReadonlyArray<Gamepad | null> =>
  typeof navigator !== 'undefined' && typeof navigator.getGamepads === 'function' ? navigator.getGamepads() : [];

/**
 * The mapped commands of the robot's building in the chosen command mode (10 to 13): a button for each
 * on-screen row; a mapped key or game controller button runs its row too. Each run says how it went
 * (a notification and the last result under the buttons). Used by the basic controller and the
 * operator screen.
 */
export function MappedCommands({
  robotId,
  actions,
  enabled,
  size = 'md',
}: {
  robotId: number;
  actions: MappedActionRunner;
  enabled: boolean;
  size?: 'md' | 'lg';
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [mode, setMode] = useState<OperatorCommandMode>(10);
  const mapping = useRobotCommandMapping(robotId, mode);
  const order = useRobotCommand(robotId);
  const entries = mapping.data?.entries ?? [];
  const [last, setLast] = useState<{ label: string; ok: boolean; text: string } | null>(null);
  const [running, setRunning] = useState<string | null>(null);

  const run = useCallback(
    async (e: CommandMappingEntry) => {
      const ran = t('commandMappings.controller.ran', { label: e.label });
      setRunning(e.label);
      try {
        if (e.command.kind === 'action') {
          const refused = await actions.run(e.command.action, ran);
          setLast(
            refused === null
              ? { label: e.label, ok: true, text: ran }
              : { label: e.label, ok: false, text: t('commandMappings.controller.notRun', { label: e.label }) },
          );
        } else {
          await order.mutateAsync(e.command.command);
          showNotification({ color: 'teal', message: ran, autoClose: 2500 });
          setLast({ label: e.label, ok: true, text: ran });
        }
      } catch (err) {
        const reason = errorText(err);
        const text = t('commandMappings.controller.failed', { label: e.label, reason });
        showNotification({ color: 'red', message: text });
        setLast({ label: e.label, ok: false, text });
      } finally {
        setRunning(null);
      }
    },
    [actions, order, t, errorText],
  );

  // Keys: a fresh press of a mapped key (not while typing in a field).
  const latest = useRef({ entries, enabled, run });
  useEffect(() => {
    latest.current = { entries, enabled, run };
  });
  useEffect(() => {
    const onKey = (ev: KeyboardEvent) => {
      const { entries: rows, enabled: on, run: go } = latest.current;
      if (!on || ev.repeat || ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
      const row = rows.find((r) => r.key === ev.code);
      if (!row) return;
      ev.preventDefault();
      void go(row);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Game controller: a button going down runs its row (polled, as the browser sends no events).
  const hasPadRows = entries.some((e) => e.gamepadButton !== null);
  useEffect(() => {
    if (!hasPadRows) return;
    let was: boolean[] = [];
    const timer = window.setInterval(() => {
      const pad = gamepads().find((p) => p?.connected);
      if (!pad) return;
      const now = pad.buttons.map((b) => b.pressed);
      const { entries: rows, enabled: on, run: go } = latest.current;
      if (on)
        for (const row of rows)
          if (row.gamepadButton !== null && now[row.gamepadButton] && !was[row.gamepadButton]) void go(row);
      was = now;
    }, 50);
    return () => window.clearInterval(timer);
  }, [hasPadRows]);

  const names = (mapping.data?.mappings ?? []).map((m) => m.name).join(', ');

  return (
    <Paper withBorder p="md" data-testid="mapped-commands">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} size="sm">
            {t('commandMappings.controller.title')}
          </Text>
          <SegmentedControl
            size="xs"
            aria-label={t('commandMappings.controller.mode')}
            value={String(mode)}
            onChange={(v) => setMode(COMMAND_MODES.find((m) => String(m) === v) ?? 10)}
            data={COMMAND_MODES.map((m) => ({ value: String(m), label: String(m) }))}
            data-testid="mapped-mode"
          />
        </Group>
        {mapping.isPending ? (
          <Text size="sm" c="dimmed">
            {t('commandMappings.controller.loading')}
          </Text>
        ) : mapping.isError ? (
          <Text size="sm" c="red">
            {t('commandMappings.controller.error')}
          </Text>
        ) : entries.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="mapped-none">
            {t('commandMappings.controller.none')}
          </Text>
        ) : (
          <>
            <Group gap="xs" wrap="wrap">
              {entries
                .filter((e) => e.screen)
                .map((e) => (
                  <Button
                    key={e.label}
                    size={size}
                    variant="light"
                    disabled={!enabled}
                    loading={running === e.label}
                    onClick={() => void run(e)}
                    rightSection={
                      e.key !== null ? (
                        <Badge
                          size="xs"
                          variant="outline"
                          title={t('commandMappings.controller.keyHint', { key: keyName(e.key) })}
                        >
                          {keyName(e.key)}
                        </Badge>
                      ) : undefined
                    }
                    data-testid={`mapped-${e.label}`}
                  >
                    {e.label}
                  </Button>
                ))}
            </Group>
            {entries.some((e) => !e.screen) && (
              <Text size="xs" c="dimmed">
                {entries
                  .filter((e) => !e.screen)
                  .map((e) =>
                    [
                      e.label,
                      e.key === null ? null : t('commandMappings.controller.keyHint', { key: keyName(e.key) }),
                      e.gamepadButton === null
                        ? null
                        : t('commandMappings.controller.padHint', { button: e.gamepadButton }),
                    ]
                      .filter((x) => x !== null)
                      .join(' — '),
                  )
                  .join(' · ')}
              </Text>
            )}
            {names && (
              <Text size="xs" c="dimmed">
                {t('commandMappings.controller.from', { names })}
              </Text>
            )}
          </>
        )}
        {last && (
          <Text size="sm" c={last.ok ? 'teal' : 'red'} role="status" data-testid="mapped-last">
            {last.text}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
