/**
 * English texts of flows and the command library: a lazily loaded section (lib/i18n.ts
 * `loadSection('flows')`). Top-level keys must not exist in ../en.ts. The `flowValidation` keys are
 * the messages of the contract's flow definition schema and `validateFlowDefinition`.
 */
export const flowsEn = {
  flowValidation: {
    stepId: 'Use letters, digits, "-" and "_" only',
    unknownKind: 'Unknown command',
    emptyLoop: 'A loop needs at least one step',
    emptyCommand: 'A command needs at least one step',
    tooDeep: 'Loops are nested too deeply (at most 4 levels)',
    tooManySteps: 'Too many steps (at most 500 in a flow, 200 in one list, 20 in a command)',
    duplicateStepId: 'Another step has the same id',
    version: 'Unsupported definition version',
    speechSource: "Choose one of the building's speech texts or enter a text",
    gimbalAngles: 'Enter the pan and tilt angles',
    lightsNothing: 'Choose a light to switch',
    taskNested: 'A task cannot start inside another task',
    taskNotStarted: 'There is no task start before this task complete',
    taskCloseOutside: 'Complete the task in the same list it started in (not inside a loop)',
    taskNotClosed: 'This task is never completed: add a task complete after it in the same list',
    outsideTask: 'Only allowed between task start and task complete',
    detectionDistance: 'The detection distance must be between 0.5 and 5 m',
    detectionCamera: 'Person detection works only with the front or gimbal camera',
    workPlansUnavailable: 'Work plans are not available yet, so a flow cannot launch one',
    commandInCommand: 'A command cannot use another command',
    commandModel: 'This command cannot be used with the robot model {{model}}',
    unknownParameter: 'The command has no parameter "{{name}}"',
    parameterType: 'The value does not match the parameter type',
    parameterName: 'Start with a letter; use letters, digits and "_" only',
    capability: 'The robot ({{model}}) cannot do this: {{capability}}',
    notOnFloor: 'Not on the map of the floor the robot is on at this step',
    flowGroupBuilding: 'Choose a flow group of the selected building',
    floorBuilding: 'Choose a floor of the selected building',
    reorderMismatch: 'List every flow of this building and floor exactly once',
    scopeSystemOnly: 'Only system administrators can use this scope',
    inUse: 'Used by this flow',
    organizationFixed: 'The organization cannot be changed',
    commandNeedsTask: 'This command records task images or events: use it between task start and task complete',
    commandNotHere:
      'This command names a waypoint, route, floor, speech text or pose that is not available here (on this floor of this building)',
  },
};

type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
/** The shape the Japanese section must have. */
export type FlowsMessages = DeepStrings<typeof flowsEn>;
