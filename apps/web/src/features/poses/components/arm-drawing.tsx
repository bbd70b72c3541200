import { ARM_MODEL_SPECS, armSideView, hasPeriscope, type ArmModel, type ArmTypeCode } from '@portal/contract';
import { useTranslation } from 'react-i18next';

/** Torso height in millimetres from the floor to the shoulder (periscope down). */
const TORSO_MM = 600;
const ARM_COLORS = ['var(--mantine-color-blue-6)', 'var(--mantine-color-orange-6)'];

interface ArmDrawingProps {
  armModel: ArmModel;
  armType: ArmTypeCode;
  arms: ReadonlyArray<ReadonlyArray<number | undefined>>;
  periscopeMm: number | null;
  height?: number;
}

/**
 * A side view of the posture: the torso, the periscope raising the shoulder, and each arm as a
 * kinematic chain of its pitch joints with the model's link lengths (contract `armSideView`).
 * Dual arms are drawn over each other (left blue, right orange), as they look from the side.
 */
export function ArmDrawing({ armModel, armType, arms, periscopeMm, height = 320 }: ArmDrawingProps) {
  const { t } = useTranslation();
  const spec = ARM_MODEL_SPECS[armModel];
  const reach = spec.linksMm.reduce((a, b) => a + b, 0);
  const lift = hasPeriscope(armType) ? Math.min(Math.max(periscopeMm ?? 0, 0), spec.periscopeMaxMm) : 0;
  const top = TORSO_MM + spec.periscopeMaxMm + reach + 40;
  const shoulder = { x: 0, y: TORSO_MM + lift };
  // SVG y grows downward: y_svg = -y.
  const minX = -reach - 60;
  const width = 2 * reach + 120;
  const joints = (a: number) =>
    armSideView(
      armModel,
      spec.joints.map((j, i) => {
        const v = arms[a]?.[i];
        return typeof v === 'number' && Number.isFinite(v) ? v : j.home;
      }),
      shoulder,
    );
  return (
    <svg
      role="img"
      aria-label={t('poseDefs.drawingLabel')}
      viewBox={`${minX} ${-top} ${width} ${top + 40}`}
      width="100%"
      height={height}
      data-testid="pose-drawing"
      style={{ background: 'var(--mantine-color-default-hover)', borderRadius: 8 }}
    >
      <line x1={minX} x2={minX + width} y1={0} y2={0} stroke="var(--mantine-color-gray-5)" strokeWidth={6} />
      <rect x={-90} y={-TORSO_MM + 40} width={180} height={TORSO_MM - 40} rx={30} fill="var(--mantine-color-gray-4)" />
      {hasPeriscope(armType) && (
        <rect
          x={-35}
          y={-(TORSO_MM + lift)}
          width={70}
          height={lift + 40}
          fill="var(--mantine-color-gray-6)"
          data-testid="pose-drawing-periscope"
        />
      )}
      <circle
        cx={0}
        cy={-(TORSO_MM + lift) - 70}
        r={60}
        fill="var(--mantine-color-gray-3)"
        stroke="var(--mantine-color-gray-6)"
        strokeWidth={6}
      />
      {arms.map((_, a) => {
        const pts = joints(a);
        return (
          <g key={a} data-testid={`pose-drawing-arm-${a}`} opacity={a === 1 ? 0.85 : 1}>
            <polyline
              points={pts.map((p) => `${p.x},${-p.y}`).join(' ')}
              fill="none"
              stroke={ARM_COLORS[a]}
              strokeWidth={a === 1 ? 22 : 30}
              strokeLinecap="round"
              strokeLinejoin="round"
              strokeDasharray={a === 1 ? '50 20' : undefined}
            />
            {pts.map((p, i) => (
              <circle
                key={i}
                cx={p.x}
                cy={-p.y}
                r={18}
                fill="var(--mantine-color-body)"
                stroke={ARM_COLORS[a]}
                strokeWidth={8}
              />
            ))}
          </g>
        );
      })}
    </svg>
  );
}
