import { Button, Group, NativeSelect, Slider, Stack, Text, Textarea } from '@mantine/core';
import { VOICE_LANGUAGES, voiceLanguageSchema, type SpeechText, type VoiceLanguage } from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MicError } from '../hooks/use-push-to-talk';
import type { useRobotActions } from '../hooks/use-robot-action';

type Actions = ReturnType<typeof useRobotActions>;

export interface PushToTalk {
  talking: boolean;
  error: MicError | null;
  start: () => void | Promise<void>;
  stop: () => void;
}

/** Press and hold (mouse, touch or pen) to talk through the robot; M does the same on the keyboard. */
export function TalkButton({ ptt, enabled, size = 'sm' }: { ptt: PushToTalk; enabled: boolean; size?: 'sm' | 'lg' }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Button
        size={size}
        variant={ptt.talking ? 'filled' : 'light'}
        color={ptt.talking ? 'red' : 'blue'}
        disabled={!enabled}
        aria-pressed={ptt.talking}
        onPointerDown={(e) => {
          e.currentTarget.setPointerCapture?.(e.pointerId);
          void ptt.start();
        }}
        onPointerUp={ptt.stop}
        onPointerCancel={ptt.stop}
        onLostPointerCapture={() => ptt.talking && ptt.stop()}
        onContextMenu={(e) => e.preventDefault()}
        style={{ touchAction: 'none', userSelect: 'none' }}
        data-testid="teleop-talk"
      >
        {ptt.talking ? t('teleopScreen.speech.talking') : t('teleopScreen.speech.talk')}
      </Button>
      {ptt.error && (
        <Text size="xs" c="red" role="alert" data-testid="teleop-mic-error">
          {t(`teleopScreen.speech.micErrors.${ptt.error}`)}
        </Text>
      )}
    </Stack>
  );
}

/** The building's phrases as one-click buttons, each spoken in its own language. */
export function PhraseButtons({
  phrases,
  actions,
  enabled,
  size = 'xs',
}: {
  phrases: readonly SpeechText[];
  actions: Actions;
  enabled: boolean;
  size?: 'xs' | 'lg';
}) {
  const { t } = useTranslation();
  if (phrases.length === 0)
    return (
      <Text size="xs" c="dimmed">
        {t('teleopScreen.speech.noPhrases')}
      </Text>
    );
  return (
    <Group gap={6} data-testid="teleop-phrases">
      {phrases.map((p) => (
        <Button
          key={p.id}
          size={size}
          variant="default"
          disabled={!enabled}
          title={p.text}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
          h="auto"
          py={6}
          onClick={() =>
            void actions.run({ type: 'speak', text: p.text, language: p.language }, t('teleopScreen.speech.sent'))
          }
        >
          {p.text.length > 40 ? `${p.text.slice(0, 40)}…` : p.text}
        </Button>
      ))}
    </Group>
  );
}

interface SpeechPanelProps {
  ptt: PushToTalk;
  actions: Actions;
  phrases: readonly SpeechText[];
  /** Push-to-talk: the controller only (it is on the peer). */
  canTalk: boolean;
  /** Text to speech and volumes: robot actions. */
  enabled: boolean;
}

/** Push-to-talk, text to speech in a chosen voice language, phrases, speaker volume and microphone gain. */
export function SpeechPanel({ ptt, actions, phrases, canTalk, enabled }: SpeechPanelProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [language, setLanguage] = useState<VoiceLanguage>('auto');
  const [volume, setVolume] = useState(50);
  const [gain, setGain] = useState(50);
  const trimmed = text.trim();

  const setAudio = (speakerVolume: number, micGain: number) =>
    void actions.run({ type: 'setAudio', speakerVolume, micGain });

  return (
    <Stack gap="md">
      <TalkButton ptt={ptt} enabled={canTalk} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!trimmed) return;
          void actions.run({ type: 'speak', text: trimmed, language }, t('teleopScreen.speech.sent')).then((code) => {
            if (code === null) setText('');
          });
        }}
      >
        <Stack gap={6}>
          <Textarea
            size="xs"
            label={t('teleopScreen.speech.text')}
            value={text}
            maxLength={500}
            autosize
            minRows={2}
            maxRows={5}
            onChange={(e) => setText(e.currentTarget.value)}
            data-testid="teleop-speech-text"
          />
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <NativeSelect
              size="xs"
              style={{ flex: 1 }}
              label={t('teleopScreen.speech.language')}
              value={language}
              onChange={(e) => {
                const l = voiceLanguageSchema.safeParse(e.currentTarget.value);
                if (l.success) setLanguage(l.data);
              }}
              data={VOICE_LANGUAGES.map((l) => ({ value: l, label: t(`teleopScreen.speech.languages.${l}`) }))}
              data-testid="teleop-speech-language"
            />
            <Button
              size="xs"
              type="submit"
              disabled={!enabled || !trimmed}
              loading={actions.pending === 'speak'}
              data-testid="teleop-speak"
            >
              {t('teleopScreen.speech.speak')}
            </Button>
          </Group>
        </Stack>
      </form>
      <div>
        <Text size="xs" fw={600} c="dimmed" mb={4}>
          {t('teleopScreen.speech.phrases')}
        </Text>
        <PhraseButtons phrases={phrases} actions={actions} enabled={enabled} />
      </div>
      <div>
        <Text size="xs" fw={600} c="dimmed" id="teleop-volume-label">
          {t('teleopScreen.speech.speakerVolume')}
        </Text>
        <Slider
          value={volume}
          onChange={setVolume}
          onChangeEnd={(v) => setAudio(v, gain)}
          disabled={!enabled}
          label={(v) => `${v}`}
          thumbProps={{ 'aria-labelledby': 'teleop-volume-label' }}
        />
      </div>
      <div>
        <Text size="xs" fw={600} c="dimmed" id="teleop-gain-label">
          {t('teleopScreen.speech.micGain')}
        </Text>
        <Slider
          value={gain}
          onChange={setGain}
          onChangeEnd={(v) => setAudio(volume, v)}
          disabled={!enabled}
          label={(v) => `${v}`}
          thumbProps={{ 'aria-labelledby': 'teleop-gain-label' }}
        />
      </div>
    </Stack>
  );
}
