import { Box, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface VideoStageProps {
  videoStream: MediaStream | null;
  audioStream: MediaStream | null;
  /** Shown over the video when there is none yet (connecting, closed...). */
  placeholder?: ReactNode;
  /** Overlays: corners and banners, positioned by the caller. */
  children?: ReactNode;
  /** 240 px (filling the column) unless a class sizes the stage. */
  minHeight?: number | string;
  /** Sizing by the caller's layout (a CSS module class: aspect ratio, height limits). */
  className?: string;
}

/**
 * The robot's camera filling its area (muted: the robot's sound plays through its own audio
 * element, which the browser may hold back until the operator clicks once).
 */
export function VideoStage({ videoStream, audioStream, placeholder, children, minHeight, className }: VideoStageProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const [soundBlocked, setSoundBlocked] = useState(false);

  useEffect(() => {
    const el = video.current;
    if (el && el.srcObject !== videoStream) el.srcObject = videoStream;
  }, [videoStream]);

  useEffect(() => {
    const el = audio.current;
    if (!el || el.srcObject === audioStream) return;
    el.srcObject = audioStream;
    if (!audioStream) return;
    el.play().then(
      () => setSoundBlocked(false),
      // Autoplay with sound needs a user gesture first.
      () => setSoundBlocked(true),
    );
  }, [audioStream]);

  return (
    <Box
      className={className}
      style={{
        position: 'relative',
        // Without a class the stage fills its column; a class sizes it otherwise.
        ...(className ? { minHeight } : { flex: 1, minHeight: minHeight ?? 240 }),
        background: '#000',
        borderRadius: 'var(--mantine-radius-md)',
        overflow: 'hidden',
      }}
    >
      <video
        ref={video}
        data-testid="teleop-video"
        aria-label={t('teleopScreen.video.label')}
        autoPlay
        muted
        playsInline
        style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'contain' }}
      />
      <audio ref={audio} autoPlay hidden />
      {!videoStream && (
        <Center style={{ position: 'absolute', inset: 0 }}>
          {placeholder ?? (
            <Stack align="center" gap="xs">
              <Loader color="gray" />
              <Text c="gray.3" size="sm">
                {t('teleopScreen.video.waiting')}
              </Text>
            </Stack>
          )}
        </Center>
      )}
      {soundBlocked && (
        <Button
          size="xs"
          variant="white"
          style={{ position: 'absolute', bottom: 12, left: '50%', transform: 'translateX(-50%)', zIndex: 3 }}
          onClick={() => {
            void audio.current?.play().then(
              () => setSoundBlocked(false),
              () => undefined,
            );
          }}
        >
          {t('teleopScreen.video.enableSound')}
        </Button>
      )}
      {children}
    </Box>
  );
}

/** A translucent box in a corner of the video (readable on any picture, in both themes). */
export function OverlayBox({ children, style }: { children: ReactNode; style?: React.CSSProperties }) {
  return (
    <Box
      style={{
        position: 'absolute',
        zIndex: 2,
        padding: '6px 10px',
        borderRadius: 'var(--mantine-radius-sm)',
        background: 'rgba(0, 0, 0, 0.7)',
        // The robot's own captions under the box would mix with its text.
        backdropFilter: 'blur(3px)',
        color: '#fff',
        fontSize: 'var(--mantine-font-size-xs)',
        pointerEvents: 'none',
        ...style,
      }}
    >
      {children}
    </Box>
  );
}
