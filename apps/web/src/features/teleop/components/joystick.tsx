import { Box } from '@mantine/core';
import { useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ControlInput } from '../lib/control-input';

interface JoystickProps {
  input: ControlInput;
  disabled?: boolean;
  /** Pad diameter in px. */
  size?: number;
}

/**
 * A round pad: drag the knob from the centre to drive (up forward, sideways turns); letting go
 * brings it back to the centre. Pointer capture keeps the drag when the finger leaves the pad.
 */
export function Joystick({ input, disabled = false, size = 168 }: JoystickProps) {
  const { t } = useTranslation();
  const pad = useRef<HTMLDivElement>(null);
  const [knob, setKnob] = useState({ x: 0, y: 0 });
  const [active, setActive] = useState(false);
  const knobSize = Math.round(size * 0.36);
  const radius = (size - knobSize) / 2;

  const move = (e: PointerEvent<HTMLDivElement>) => {
    const rect = pad.current?.getBoundingClientRect();
    if (!rect) return;
    const x = (e.clientX - (rect.left + rect.width / 2)) / radius;
    const y = -(e.clientY - (rect.top + rect.height / 2)) / radius;
    const len = Math.hypot(x, y);
    const k = len > 1 ? 1 / len : 1;
    input.setJoystick(x * k, y * k);
    setKnob({ x: x * k, y: y * k });
  };
  const release = () => {
    input.releaseJoystick();
    setKnob({ x: 0, y: 0 });
    setActive(false);
  };

  return (
    <Box
      ref={pad}
      role="img"
      aria-label={t('teleopScreen.drive.joystick')}
      data-testid="teleop-joystick"
      data-disabled={disabled || undefined}
      onPointerDown={(e) => {
        if (disabled) return;
        e.currentTarget.setPointerCapture?.(e.pointerId);
        setActive(true);
        move(e);
      }}
      onPointerMove={(e) => {
        if (active) move(e);
      }}
      onPointerUp={release}
      onPointerCancel={release}
      onLostPointerCapture={() => active && release()}
      style={{
        width: size,
        height: size,
        borderRadius: '50%',
        position: 'relative',
        touchAction: 'none',
        userSelect: 'none',
        cursor: disabled ? 'not-allowed' : 'grab',
        opacity: disabled ? 0.45 : 1,
        background: 'var(--mantine-color-default-hover)',
        border: '2px solid var(--mantine-color-default-border)',
        flex: 'none',
      }}
    >
      <Box
        aria-hidden
        style={{
          position: 'absolute',
          width: knobSize,
          height: knobSize,
          left: '50%',
          top: '50%',
          borderRadius: '50%',
          background: active ? 'var(--mantine-color-blue-filled)' : 'var(--mantine-color-gray-6)',
          transform: `translate(calc(-50% + ${knob.x * radius}px), calc(-50% + ${-knob.y * radius}px))`,
          transition: active ? undefined : 'transform 120ms ease-out',
          boxShadow: 'var(--mantine-shadow-sm)',
        }}
      />
    </Box>
  );
}
