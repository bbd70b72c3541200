import {
  Group,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  type NumberInputProps,
} from '@mantine/core';
import {
  CAMERA_IDS,
  DEFAULT_ERROR_POLICY,
  FACE_EXPRESSIONS,
  FLOW_LEVELS,
  FLOW_SPEECH_LANGUAGES,
  PERSON_DETECTION,
  PHOTO_RESOLUTIONS,
  THERMAL_COLOR_MAPS,
  UPLOAD_QUALITIES,
  type CameraId,
  type ErrorPolicy,
  type StepKind,
} from '@portal/contract';
import { useState, type ReactNode } from 'react';
import { useText } from './text';
import type { BuilderData } from './use-builder-data';
import type { Step } from './tree';

interface StepFieldsProps {
  step: Step;
  onChange: (next: Step) => void;
  data: BuilderData;
  /** The floor the robot is on when this step starts (null: unknown). */
  floorId: number | null;
  /** A field's message (already translated), or undefined. */
  fieldError: (field: string) => string | undefined;
  readOnly?: boolean;
  /** The cameras to offer (the chosen robot's, or the building's robots'); default every camera. */
  cameras?: CameraChoice;
}

/** The cameras a camera select offers, and how one outside them (already in the definition) is marked. */
export interface CameraChoice {
  list: readonly CameraId[];
  /** The label of a camera the definition names that is not in `list` (the camera's name given). */
  unavailable: (name: string) => string;
}

type Option = { value: string; label: string };
const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/**
 * The parameters of one step in a form made for its kind: waypoints and routes from the map of the
 * floor the robot is on at the step, floors of the building, cameras, the building's speech texts,
 * pose definitions, library commands; then the step's error policy. Every field has a label and a
 * `flow-field-<name>` test id (unique within the selected block).
 */
export function StepFields({ step, onChange, data, floorId, fieldError, readOnly, cameras }: StepFieldsProps) {
  const { t, language } = useText();
  const b = (key: string, o?: Record<string, unknown>) => t(`flowEditor.builder.${key}`, o);
  const s = step as Record<string, unknown>;
  const set = (patch: Record<string, unknown>) => {
    const next = { ...s, ...patch };
    for (const [k, v] of Object.entries(patch)) if (v === undefined) delete next[k];
    onChange(next as Step);
  };
  const choose = { value: '', label: b('choose') };

  const select = (field: string, label: string, options: Option[], opts: { path?: string; empty?: Option } = {}) => {
    const value = str(s[field]);
    const known = options.some((o) => o.value === value);
    const data = [
      ...(opts.empty ? [opts.empty] : value === '' ? [choose] : []),
      ...(known || value === '' ? [] : [{ value, label: `#${value}` }]),
      ...options,
    ];
    return { label, data, value, error: fieldError(opts.path ?? field), 'data-testid': `flow-field-${field}` };
  };
  const numberOf = (v: string) => (v === '' ? undefined : Number(v));
  const numField = (field: string, label: string, props: { min?: number; max?: number; step?: number } = {}) => (
    <NumberField
      label={label}
      value={typeof s[field] === 'number' ? (s[field] as number) : undefined}
      onValue={(v) => set({ [field]: v })}
      allowDecimal={(props.step ?? 1) < 1}
      {...props}
      error={fieldError(field)}
      readOnly={readOnly}
      data-testid={`flow-field-${field}`}
    />
  );
  const textField = (field: string, label: string, optional = false) => (
    <TextInput
      label={label}
      value={str(s[field])}
      onChange={(e) => {
        const v = e.currentTarget.value;
        set({ [field]: optional && v === '' ? undefined : v });
      }}
      error={fieldError(field)}
      readOnly={readOnly}
      data-testid={`flow-field-${field}`}
    />
  );
  const enumSelect = (field: string, label: string, values: readonly string[], labelOf: (v: string) => string) => {
    const p = select(
      field,
      label,
      values.map((v) => ({ value: v, label: labelOf(v) })),
    );
    return (
      <NativeSelect {...p} disabled={readOnly} onChange={(e) => set({ [field]: e.currentTarget.value || undefined })} />
    );
  };
  // The offered cameras (of `among`), and the definition's camera even when not offered (marked, never dropped).
  const cameraOptions = (value: string, among: readonly string[] = CAMERA_IDS): Option[] => {
    const offered = (c: string) => !cameras || (cameras.list as readonly string[]).includes(c);
    return CAMERA_IDS.filter((c) => c === value || (among.includes(c) && offered(c))).map((c) => ({
      value: c,
      label: cameras && !offered(c) ? cameras.unavailable(b(`cameras.${c}`)) : b(`cameras.${c}`),
    }));
  };
  const camera = (field = 'camera') => (
    <NativeSelect
      {...select(field, b('fields.camera'), cameraOptions(str(s[field])))}
      disabled={readOnly}
      onChange={(e) => set({ [field]: e.currentTarget.value || undefined })}
    />
  );
  const waypointOptions = (floor: number | null): Option[] =>
    floor === null
      ? []
      : (data.mapOf.get(floor)?.document.waypoints ?? []).map((w) => ({ value: String(w.id), label: w.name }));
  const idSelect = (field: string, label: string, options: Option[]) => (
    <NativeSelect
      {...select(field, label, options)}
      disabled={readOnly}
      onChange={(e) => set({ [field]: numberOf(e.currentTarget.value) })}
    />
  );

  let fields: ReactNode = null;
  switch (step.kind as StepKind) {
    case 'moveToWaypoint':
      fields = (
        <SimpleGrid cols={2}>
          {idSelect('waypointId', b('fields.waypoint'), waypointOptions(floorId))}
          <NativeSelect
            {...select(
              'speed',
              b('fields.speed'),
              [
                { value: 'normal', label: b('options.normal') },
                { value: 'slow', label: b('options.slow') },
              ],
              { empty: { value: '', label: b('options.speedMap') } },
            )}
            disabled={readOnly}
            onChange={(e) => set({ speed: e.currentTarget.value || undefined })}
          />
        </SimpleGrid>
      );
      break;
    case 'followRoute':
      fields = idSelect(
        'routeId',
        b('fields.route'),
        floorId === null
          ? []
          : (data.mapOf.get(floorId)?.document.routes ?? []).map((r) => ({ value: String(r.id), label: r.name })),
      );
      break;
    case 'moveToFloor': {
      const target = typeof s.floorId === 'number' ? s.floorId : null;
      fields = (
        <SimpleGrid cols={2}>
          <NativeSelect
            {...select(
              'floorId',
              b('fields.floor'),
              data.floors
                .filter((f) => f.id !== undefined && f.id !== floorId)
                .map((f) => ({ value: String(f.id), label: f.name ?? `#${f.id}` })),
            )}
            disabled={readOnly}
            onChange={(e) => set({ floorId: numberOf(e.currentTarget.value), waypointId: undefined })}
          />
          {idSelect('waypointId', b('fields.waypoint'), waypointOptions(target))}
        </SimpleGrid>
      );
      break;
    }
    case 'passSecurityDoor':
      fields = textField('doorId', b('fields.doorId'));
      break;
    case 'wait': {
      const d = s.detectPerson as { camera?: string; distanceM?: number } | undefined;
      fields = (
        <Stack gap="xs">
          {numField('seconds', d ? b('fields.secondsTimeout') : b('fields.seconds'), { min: 0, max: 86_400 })}
          <Switch
            label={b('fields.detectPerson')}
            checked={d !== undefined}
            disabled={readOnly}
            onChange={(e) =>
              set({
                detectPerson: e.currentTarget.checked
                  ? {
                      camera:
                        PERSON_DETECTION.cameras.find((c) => !cameras || cameras.list.includes(c)) ??
                        PERSON_DETECTION.cameras[0],
                      distanceM: 2,
                    }
                  : undefined,
              })
            }
            data-testid="flow-field-detectPerson"
          />
          {d && (
            <SimpleGrid cols={2}>
              <NativeSelect
                label={b('fields.detectCamera')}
                value={str(d.camera)}
                data={[
                  ...(d.camera === undefined || (CAMERA_IDS as readonly string[]).includes(d.camera)
                    ? []
                    : [{ value: d.camera, label: `#${d.camera}` }]),
                  ...cameraOptions(str(d.camera), PERSON_DETECTION.cameras),
                ]}
                disabled={readOnly}
                onChange={(e) => set({ detectPerson: { ...d, camera: e.currentTarget.value } })}
                error={fieldError('detectPerson.camera')}
                data-testid="flow-field-detectCamera"
              />
              <NumberField
                label={b('fields.distance')}
                value={d.distanceM}
                step={0.1}
                decimalScale={2}
                readOnly={readOnly}
                onValue={(v) => set({ detectPerson: { ...d, distanceM: v } })}
                error={fieldError('detectPerson.distanceM')}
                data-testid="flow-field-distance"
              />
            </SimpleGrid>
          )}
        </Stack>
      );
      break;
    }
    case 'speak': {
      const fromBuilding = s.speechTextId !== undefined;
      fields = (
        <Stack gap="xs">
          <NativeSelect
            label={b('fields.speechSource')}
            value={fromBuilding ? 'building' : 'free'}
            data={[
              { value: 'free', label: b('options.freeText') },
              ...(data.speechTexts.length > 0 || fromBuilding
                ? [{ value: 'building', label: b('options.buildingText') }]
                : []),
            ]}
            disabled={readOnly}
            onChange={(e) =>
              set(
                e.currentTarget.value === 'building'
                  ? { speechTextId: data.speechTexts[0]?.id, text: undefined, language: undefined }
                  : {
                      speechTextId: undefined,
                      text: b('defaults.speech'),
                      language: language.startsWith('ja') ? 'ja' : 'en',
                    },
              )
            }
            data-testid="flow-field-speechSource"
          />
          {fromBuilding ? (
            idSelect(
              'speechTextId',
              b('fields.speechText'),
              data.speechTexts.map((x) => ({ value: String(x.id), label: x.text })),
            )
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {textField('text', b('fields.text'))}
              {enumSelect('language', b('fields.language'), FLOW_SPEECH_LANGUAGES, (l) => b(`options.${l}`))}
            </SimpleGrid>
          )}
        </Stack>
      );
      break;
    }
    case 'playAudio':
      fields = (
        <SimpleGrid cols={2}>
          {textField('audio', b('fields.audio'))}
          {numField('volume', b('fields.volume'), { min: 0, max: 100 })}
        </SimpleGrid>
      );
      break;
    case 'takePhoto':
      fields = (
        <Stack gap="xs">
          <SimpleGrid cols={2}>
            {camera()}
            {enumSelect('resolution', b('fields.resolution'), PHOTO_RESOLUTIONS, (r) => r)}
          </SimpleGrid>
          <Switch
            label={b('fields.saveAsTaskImage')}
            checked={s.saveAsTaskImage === true}
            disabled={readOnly}
            onChange={(e) => set({ saveAsTaskImage: e.currentTarget.checked })}
            error={fieldError('saveAsTaskImage')}
            data-testid="flow-field-saveAsTaskImage"
          />
        </Stack>
      );
      break;
    case 'meterCheck': {
      // The building's check items on the floor the robot is on at this step; the camera is the
      // front one (v1) unless another is chosen, so the select shows it rather than "Choose".
      const meterCamera = select('camera', b('fields.camera'), cameraOptions(str(s.camera) || 'v1'));
      fields = (
        <SimpleGrid cols={2}>
          {idSelect(
            'checkItemId',
            b('fields.checkItem'),
            data.checkItems
              .filter((c) => floorId === null || c.floorId === floorId || c.id === s.checkItemId)
              .map((c) => ({ value: String(c.id), label: c.name })),
          )}
          <NativeSelect
            {...meterCamera}
            value={meterCamera.value || 'v1'}
            data={meterCamera.data.filter((o) => o.value !== '')}
            disabled={readOnly}
            onChange={(e) => set({ camera: e.currentTarget.value === 'v1' ? undefined : e.currentTarget.value })}
          />
        </SimpleGrid>
      );
      break;
    }
    case 'recording':
      fields = (
        <SimpleGrid cols={2}>
          {enumSelect('action', b('fields.action'), ['start', 'stop'], (a) => b(`options.${a}`))}
          <NativeSelect
            {...select(
              'quality',
              b('fields.quality'),
              UPLOAD_QUALITIES.map((q) => ({ value: q, label: b(`options.${q}`) })),
              { empty: { value: '', label: b('options.qualityDefault') } },
            )}
            disabled={readOnly}
            onChange={(e) => set({ quality: e.currentTarget.value || undefined })}
          />
        </SimpleGrid>
      );
      break;
    case 'cameraSettings':
      fields = (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {camera()}
          {numField('zoom', b('fields.zoom'), { min: 1, max: 30, step: 0.5 })}
          <NativeSelect
            {...select(
              'colorMap',
              b('fields.colorMap'),
              THERMAL_COLOR_MAPS.map((c) => ({
                value: c,
                label: c === 'normal' ? b('options.normal') : b(`options.${c}`),
              })),
              { empty: { value: '', label: b('options.colorMapNone') } },
            )}
            disabled={readOnly}
            onChange={(e) => set({ colorMap: e.currentTarget.value || undefined })}
          />
        </SimpleGrid>
      );
      break;
    case 'pose': {
      const gimbal = s.target === 'gimbal';
      fields = (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NativeSelect
            {...select(
              'target',
              b('fields.target'),
              ['gimbal', 'periscope', 'arm'].map((v) => ({ value: v, label: b(`options.${v}`) })),
            )}
            disabled={readOnly}
            onChange={(e) => {
              const target = e.currentTarget.value;
              set(
                target === 'gimbal'
                  ? { target, pan: 0, tilt: 0, poseDefId: undefined }
                  : { target, pan: undefined, tilt: undefined, poseDefId: data.poses[0]?.id },
              );
            }}
          />
          {gimbal ? (
            <>
              {numField('pan', b('fields.pan'), { min: -180, max: 180 })}
              {numField('tilt', b('fields.tilt'), { min: -90, max: 90 })}
            </>
          ) : (
            idSelect(
              'poseDefId',
              b('fields.pose'),
              data.poses.map((p) => ({ value: String(p.id), label: p.name })),
            )
          )}
        </SimpleGrid>
      );
      break;
    }
    case 'face':
      fields = (
        <SimpleGrid cols={2}>
          {enumSelect('expression', b('fields.expression'), FACE_EXPRESSIONS, (x) => b(`options.${x}`))}
          {textField('text', b('fields.displayText'), true)}
        </SimpleGrid>
      );
      break;
    case 'lights': {
      const onOff = (field: 'ringLight' | 'patrolLamp') => (
        <NativeSelect
          label={b(`fields.${field}`)}
          value={s[field] === undefined ? '' : String(s[field])}
          data={[
            { value: '', label: b('options.unchanged') },
            { value: 'true', label: b('options.on') },
            { value: 'false', label: b('options.off') },
          ]}
          disabled={readOnly}
          onChange={(e) =>
            set({ [field]: e.currentTarget.value === '' ? undefined : e.currentTarget.value === 'true' })
          }
          error={fieldError(field)}
          data-testid={`flow-field-${field}`}
        />
      );
      fields = (
        <SimpleGrid cols={2}>
          {onOff('ringLight')}
          {onOff('patrolLamp')}
        </SimpleGrid>
      );
      break;
    }
    case 'safetyMargin':
      fields = numField('meters', b('fields.meters'), { min: 0.1, max: 2, step: 0.1 });
      break;
    case 'taskStart':
      fields = textField('name', b('fields.taskName'));
      break;
    case 'taskEvent':
    case 'notification':
      fields = (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            {...select(
              'level',
              b('fields.level'),
              FLOW_LEVELS.map((l) => ({ value: String(l), label: b(`options.level${l}`) })),
            )}
            disabled={readOnly}
            onChange={(e) => set({ level: numberOf(e.currentTarget.value) })}
          />
          {textField('message', b('fields.message'))}
        </SimpleGrid>
      );
      break;
    case 'launchWorkPlan':
      fields = numField('workPlanId', b('fields.workPlan'), { min: 1 });
      break;
    case 'command':
      fields = <CommandFields step={s} set={set} data={data} fieldError={fieldError} readOnly={readOnly} />;
      break;
    case 'loop': {
      const forever = s.count === null;
      fields = (
        <Group align="flex-end">
          {!forever && numField('count', b('fields.count'), { min: 1, max: 10_000 })}
          <Switch
            label={b('fields.forever')}
            checked={forever}
            disabled={readOnly}
            onChange={(e) => set({ count: e.currentTarget.checked ? null : 2 })}
            data-testid="flow-field-forever"
            mb={6}
          />
        </Group>
      );
      break;
    }
    default:
      fields = null;
  }

  return (
    <Stack gap="xs" data-testid="flow-step-fields">
      {fields}
      <ErrorPolicyField
        step={s}
        set={set}
        readOnly={readOnly}
        error={fieldError('onError')}
        retriesError={fieldError('onError.retries')}
      />
      <Text size="xs" c="dimmed">
        {b('stepId', { id: str(s.id) })}
      </Text>
    </Stack>
  );
}

function CommandFields({
  step,
  set,
  data,
  fieldError,
  readOnly,
}: {
  step: Record<string, unknown>;
  set: (patch: Record<string, unknown>) => void;
  data: BuilderData;
  fieldError: (field: string) => string | undefined;
  readOnly?: boolean;
}) {
  const { t } = useText();
  const command = data.commands.find((c) => c.id === step.commandId);
  const values = (step.parameters ?? {}) as Record<string, string | number | boolean>;
  const setParam = (name: string, v: string | number | boolean | undefined) => {
    const next = { ...values };
    if (v === undefined) delete next[name];
    else next[name] = v;
    set({ parameters: Object.keys(next).length > 0 ? next : undefined });
  };
  const current = str(step.commandId);
  return (
    <Stack gap="xs">
      <NativeSelect
        label={t('flowEditor.builder.fields.command')}
        value={current}
        data={[
          ...(command || current === '' ? [] : [{ value: current, label: `#${current}` }]),
          ...data.commands.map((c) => ({ value: String(c.id), label: c.name })),
        ]}
        disabled={readOnly}
        onChange={(e) => {
          const c = data.commands.find((x) => x.id === Number(e.currentTarget.value));
          set({ commandId: Number(e.currentTarget.value), parameters: c ? presets(c.parameters) : undefined });
        }}
        error={fieldError('commandId')}
        data-testid="flow-field-commandId"
      />
      {command?.parameters.map((p) => {
        const label = t('flowEditor.builder.fields.parameter', { name: p.name });
        const err = fieldError(`parameters.${p.name}`);
        const testId = `flow-field-parameter-${p.name}`;
        if (p.type === 'boolean')
          return (
            <Switch
              key={p.name}
              label={label}
              checked={values[p.name] === true}
              disabled={readOnly}
              onChange={(e) => setParam(p.name, e.currentTarget.checked)}
              error={err}
              data-testid={testId}
            />
          );
        if (p.type === 'number')
          return (
            <NumberField
              key={p.name}
              label={label}
              value={typeof values[p.name] === 'number' ? (values[p.name] as number) : undefined}
              readOnly={readOnly}
              onValue={(v) => setParam(p.name, v)}
              error={err}
              data-testid={testId}
            />
          );
        return (
          <TextInput
            key={p.name}
            label={label}
            value={str(values[p.name])}
            readOnly={readOnly}
            onChange={(e) => setParam(p.name, e.currentTarget.value)}
            error={err}
            data-testid={testId}
          />
        );
      })}
    </Stack>
  );
}

/** A library command's parameters with a preset, as a step's starting values. */
export function presets(
  parameters: ReadonlyArray<{ name: string; preset: string | number | boolean | null }>,
): Record<string, string | number | boolean> | undefined {
  const out: Record<string, string | number | boolean> = {};
  for (const p of parameters) if (p.preset !== null) out[p.name] = p.preset;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Retry n times / skip / abort, or the kind's default (named). */
function ErrorPolicyField({
  step,
  set,
  readOnly,
  error,
  retriesError,
}: {
  step: Record<string, unknown>;
  set: (patch: Record<string, unknown>) => void;
  readOnly?: boolean;
  error?: string;
  retriesError?: string;
}) {
  const { t } = useText();
  const b = (key: string, o?: Record<string, unknown>) => t(`flowEditor.builder.${key}`, o);
  const policy = step.onError as ErrorPolicy | undefined;
  const fallback = DEFAULT_ERROR_POLICY[step.kind as StepKind] as ErrorPolicy | undefined;
  const describe = (p: ErrorPolicy) =>
    p.policy === 'retry' ? b('options.retryN', { count: p.retries }) : b(`options.${p.policy}`);
  return (
    <SimpleGrid cols={policy?.policy === 'retry' ? 2 : 1}>
      <NativeSelect
        label={b('fields.onError')}
        value={policy?.policy ?? ''}
        data={[
          ...(fallback ? [{ value: '', label: b('options.policyDefault', { policy: describe(fallback) }) }] : []),
          { value: 'retry', label: b('options.retry') },
          { value: 'skip', label: b('options.skip') },
          { value: 'abort', label: b('options.abort') },
        ]}
        disabled={readOnly}
        onChange={(e) => {
          const v = e.currentTarget.value;
          set({ onError: v === '' ? undefined : v === 'retry' ? { policy: 'retry', retries: 2 } : { policy: v } });
        }}
        error={error}
        data-testid="flow-field-onError"
      />
      {policy?.policy === 'retry' && (
        <NumberField
          label={b('fields.retries')}
          value={policy.retries}
          min={1}
          max={5}
          readOnly={readOnly}
          onValue={(v) => set({ onError: { policy: 'retry', retries: v } })}
          error={retriesError}
          data-testid="flow-field-retries"
        />
      )}
    </SimpleGrid>
  );
}

/**
 * A number of the definition: written when the text is a number (or empty: removed), while what is
 * not one yet ("-", "1.") stays in the field as typed.
 */
function NumberField({
  value,
  onValue,
  ...props
}: { value: number | undefined; onValue: (v: number | undefined) => void } & Omit<
  NumberInputProps,
  'value' | 'onChange'
>) {
  const [typed, setTyped] = useState<string | null>(null);
  return (
    <NumberInput
      {...props}
      value={typed ?? value ?? ''}
      onChange={(v) => {
        if (v === '') {
          setTyped(null);
          onValue(undefined);
        } else if (typeof v === 'number' && Number.isFinite(v)) {
          setTyped(null);
          onValue(v);
        } else setTyped(String(v));
      }}
      onBlur={() => setTyped(null)}
    />
  );
}
