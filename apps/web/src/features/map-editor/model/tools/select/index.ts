import type { ToolDefinition } from '../tool';
import { brushing } from './brushing';
import { dragging } from './dragging';
import { idle } from './idle';
import { createSelectMemory, type SelectMemory } from './memory';
import { pointingCanvas } from './pointing-canvas';
import { pointingItem } from './pointing-item';

/** idle → pointingItem → dragging → idle; idle → pointingCanvas → brushing → idle. */
export const selectTool: ToolDefinition<SelectMemory> = {
  id: 'select',
  createMemory: createSelectMemory,
  states: { idle, pointingItem, dragging, pointingCanvas, brushing },
};
