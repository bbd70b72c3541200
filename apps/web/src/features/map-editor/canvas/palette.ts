import type { WaypointTypeCode } from '@portal/contract';

/** Colours of the map drawing (also used by the side panel's legend swatches). */
export const waypointColors: Record<WaypointTypeCode, string> = {
  0: '#e8590c',
  1: '#1c7ed6',
  2: '#2f9e44',
  3: '#7048e8',
  10: '#d6336c',
  99: '#868e96',
};
export const colors = {
  edge: '#495057',
  edgeSlow: '#f08c00',
  selection: '#fab005',
  route: 'rgba(250, 176, 5, 0.55)',
  noGoFill: 'rgba(224, 49, 49, 0.18)',
  noGoStroke: '#e03131',
  partialFill: 'rgba(12, 166, 120, 0.08)',
  partialStroke: '#0ca678',
  grid: 'rgba(134, 142, 150, 0.25)',
  gridMajor: 'rgba(134, 142, 150, 0.5)',
  preview: '#f76707',
  label: '#212529',
  labelHalo: 'rgba(255, 255, 255, 0.9)',
  robot: '#12b886',
  robotStroke: '#ffffff',
};
