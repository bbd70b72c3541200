/** Query keys of the operator screens. */
export const teleopKeys = {
  bySerial: (serialNo: string) => ['robots', 'by-serial', serialNo] as const,
  teleop: (robotId: number) => ['robots', robotId, 'teleop'] as const,
  photos: (robotId: number) => ['robots', robotId, 'photos'] as const,
  thermalPresets: (robotId: number) => ['robots', robotId, 'thermal-presets'] as const,
  speechTexts: (buildingId: number) => ['buildings', buildingId, 'speech-texts'] as const,
};
