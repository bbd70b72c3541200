import { armPressResultSchema, robotArmOps, robotDepthImageSchema, type ArmPressResult } from '@portal/contract';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '@/app/provider';
import { i18n } from '@/lib/i18n';
import { teleopEn } from '@/locales/en/teleop';
import { teleopJa } from '@/locales/ja/teleop';
import { mockApi, on, reply, replyError } from '@/testing/mock-api';
import { ArmPanel } from './arm-panel';
import { DepthPress } from './depth-press';

const slow = { timeout: 10_000 };
const image = (n: number) =>
  robotDepthImageSchema.parse({
    contentType: 'image/png',
    width: 640,
    height: 480,
    data: Buffer.from(`png-${n}`).toString('base64'),
    takenAt: '2026-01-01T00:00:00.000Z',
  });

function api(press: () => Response | Promise<Response>) {
  let shots = 0;
  return mockApi({
    [on(robotArmOps.getRobotDepthImage, { id: 7 })]: () => reply(robotDepthImageSchema, image(++shots)),
    [on(robotArmOps.pressRobotButton, { id: 7 })]: press,
  });
}

function renderPanel(onPressed = vi.fn()) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <AppProvider queryClient={queryClient} env="test">
      <DepthPress robotId="7" serialNo="UGO-7" arm="right" onPressed={onPressed} />
    </AppProvider>,
  );
  return { onPressed };
}

/** Clicks the image at (x, y) of a 320 × 240 box: pixel (2x, 2y) of the 640 × 480 image. */
async function clickAt(x: number, y: number) {
  const area = await screen.findByTestId('depth-image-area');
  await screen.findByRole('img');
  vi.spyOn(area, 'getBoundingClientRect').mockReturnValue({
    left: 0,
    top: 0,
    x: 0,
    y: 0,
    width: 320,
    height: 240,
    right: 320,
    bottom: 240,
    toJSON: () => ({}),
  });
  fireEvent.click(area, { clientX: x, clientY: y });
}

const depthCalls = (calls: Array<{ method: string; path: string }>) =>
  calls.filter((c) => c.method === 'GET' && c.path === '/api/robots/7/depth-image').length;

describe('DepthPress', () => {
  beforeEach(async () => {
    i18n.addResourceBundle('en', 'translation', teleopEn, true, true);
    i18n.addResourceBundle('ja', 'translation', teleopJa, true, true);
    await i18n.changeLanguage('en');
  });
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it(
    'presses where the image is clicked, shows pending, then what was pressed, and shows the image again',
    slow,
    async () => {
      let release: (r: ArmPressResult) => void = () => undefined;
      const { calls } = api(() => new Promise<Response>((ok) => (release = (r) => ok(reply(armPressResultSchema, r)))));
      const { onPressed } = renderPanel();
      expect(await screen.findByText('Depth camera: UGO-7')).toBeInTheDocument();
      await clickAt(100, 50);
      expect(await screen.findByText('The right arm is pressing…')).toBeInTheDocument();
      expect(screen.getByTestId('depth-mark')).toBeInTheDocument();
      const press = calls.find((c) => c.method === 'POST');
      expect(press?.path).toBe('/api/robots/7/arm-press');
      expect(press?.body).toEqual({ arm: 'right', u: 200, v: 100 });
      const before = depthCalls(calls);
      release({ hit: true, target: 'hall-up' });
      expect(await screen.findByText('Pressed: Elevator call (up)')).toBeInTheDocument();
      expect(onPressed).toHaveBeenCalledWith({ hit: true, target: 'hall-up' });
      await waitFor(() => expect(depthCalls(calls)).toBeGreaterThan(before));
    },
  );

  it('says there was nothing to press beside a button (en and ja), and names car buttons by floor', slow, async () => {
    let next: ArmPressResult = { hit: false, reason: 'no button there' };
    api(() => reply(armPressResultSchema, next));
    const { onPressed } = renderPanel();
    await clickAt(10, 10);
    expect(await screen.findByText('Nothing to press there')).toBeInTheDocument();
    expect(onPressed).toHaveBeenCalledWith({ hit: false });

    await i18n.changeLanguage('ja');
    expect(await screen.findByText('そこに押せるものはありません')).toBeInTheDocument();
    next = { hit: true, target: 'car-0' };
    await clickAt(20, 20);
    expect(await screen.findByText('押しました: かご内ボタン B1')).toBeInTheDocument();
    next = { hit: false, reason: 'out of reach' };
    await clickAt(30, 20);
    expect(await screen.findByText('アームが届きません（押していません）')).toBeInTheDocument();
  });

  it('shows why a press could not be made (another operator has the controls)', slow, async () => {
    api(() => replyError('TELEOP_LOCKED'));
    renderPanel();
    await clickAt(50, 50);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.queryByText(/Pressed:/)).not.toBeInTheDocument();
  });
  it('the operator screen’s arm panel presses with the arm chosen', slow, async () => {
    const { calls } = api(() => reply(armPressResultSchema, { hit: true, target: 'door-open' }));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    render(
      <AppProvider queryClient={queryClient} env="test">
        <ArmPanel robotId={7} serialNo="UGO-7" />
      </AppProvider>,
    );
    fireEvent.click(await screen.findByText('Left arm'));
    expect(await screen.findByText('Click the button the left arm should press.')).toBeInTheDocument();
    await clickAt(160, 120);
    expect(await screen.findByText('Pressed: Door opener')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ arm: 'left', u: 320, v: 240 });
  });
});
