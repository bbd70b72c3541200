/**
 * English texts of the robot console (/console): a lazily loaded section
 * (lib/i18n.ts `loadSection('console')`). Top-level keys must not exist in ../en.ts.
 */
export const consoleEn = {
  consoleScreen: {
    title: 'Robot console',
    notFound: 'No robot with serial number {{serialNo}} is registered, or you may not see it.',
    toRobotList: 'Go to the robot list',
    links: {
      robot: 'Robot details',
      teleop: 'Operator screen',
    },
    header: {
      serial: 'Serial number',
      online: 'Online',
      offline: 'Offline',
      protocol: 'Protocol',
      protocolValue: 'VDA 5050 {{version}}',
      battery: 'Battery',
      batteryValue: '{{percent}}%',
      osVersion: 'OS version',
      updating: 'OS update running',
      unknown: 'Unknown',
      refreshFailed: 'The console could not be refreshed: {{reason}} Showing the last data received.',
    },
    state: {
      title: 'Live state',
      description: 'The last state message the robot sent, as received. Refreshed every second.',
      receivedAt: 'Robot time: {{time}}',
      empty: 'The robot has not sent a state message yet.',
    },
    factsheet: {
      title: 'Factsheet',
      description: 'What the robot says it is and can do (its last factsheet message).',
      show: 'Show factsheet',
      hide: 'Hide factsheet',
      empty: 'The robot has not sent a factsheet yet. Request one with "Request factsheet".',
    },
    copy: 'Copy',
    copied: 'Copied',
    copyLabel: 'Copy {{what}} as JSON',
    actions: {
      title: 'Instant actions',
      description: 'Standard VDA 5050 instant actions, sent to the robot at once.',
      offline: 'The robot is offline: instant actions cannot be sent.',
      sent: '"{{action}}" was sent to {{name}}.',
      failed: '"{{action}}" could not be sent: {{reason}}',
      labels: {
        startPause: 'Pause',
        stopPause: 'Resume',
        cancelOrder: 'Cancel order',
        stateRequest: 'Request state',
        factsheetRequest: 'Request factsheet',
      },
      hints: {
        startPause: 'The robot stops where it is and keeps its order (startPause).',
        stopPause: 'The robot continues its order (stopPause).',
        cancelOrder: 'The robot stops and drops its current order (cancelOrder).',
        stateRequest: 'The robot sends a state message now (stateRequest).',
        factsheetRequest: 'The robot sends its factsheet now (factsheetRequest).',
      },
    },
    osUpdate: {
      title: 'OS update',
      description:
        'Installs the latest robot OS. The robot restarts afterwards and is offline for a while. Battery must be at least {{min}}%.',
      button: 'Update OS',
      confirmTitle: 'Update the OS of {{name}}?',
      confirmBody:
        'The robot installs the latest OS and then restarts. It stops what it is doing and is offline for several minutes; nobody can operate it meanwhile. Do not switch it off during the update.',
      confirmBattery: 'Battery now: {{percent}}%.',
      confirm: 'Start update',
      started: 'The OS update of {{name}} has started.',
      disabledOffline: 'The robot is offline: the OS update needs a connected robot.',
      disabledBattery:
        'Battery is {{percent}}%: it must be at least {{min}}% for the OS update. Charge the robot first.',
      disabledRunning: 'An OS update is already running.',
      progressTitle: 'Update progress',
      progress: {
        requested: 'Update requested: waiting for the robot to start…',
        updating: 'Updating…',
        restarting: 'Offline (restarting)…',
        done: 'Back online, version {{version}}',
        doneFrom: 'Back online, version {{version}} (was {{from}})',
        doneUnknown: 'Back online (version not reported yet)',
      },
      dismiss: 'Dismiss',
    },
    log: {
      title: 'Message log',
      description:
        'Messages between the portal and the robot since this console was opened (the newest {{limit}} are kept here).',
      topics: 'Topics',
      allTopics: 'All topics',
      direction: 'Direction',
      directions: {
        all: 'Both',
        in: 'From robot',
        out: 'To robot',
      },
      search: 'Search',
      searchPlaceholder: 'Text in topic or payload',
      pause: 'Pause auto-scroll',
      resume: 'Resume auto-scroll',
      clear: 'Clear',
      count: '{{shown}} of {{total}} messages',
      missed: 'Messages not shown because they arrived faster than they could be fetched: {{count}}',
      empty: 'No messages yet. They appear here as the robot and the portal exchange them.',
      noMatch: 'No message matches the filters.',
      columns: {
        time: 'Time',
        direction: 'Direction',
        topic: 'Topic',
        payload: 'Payload',
      },
      expand: 'Show the whole message',
      collapse: 'Hide the message',
      truncated: 'truncated',
      truncatedNote: 'The portal keeps only the first {{max}} characters of a message.',
      failed: 'The message log could not be refreshed: {{reason}}',
    },
  },
};

type DeepStrings<T> = { [K in keyof T]: T[K] extends string ? string : DeepStrings<T[K]> };
/** The shape the Japanese section must have. */
export type ConsoleMessages = DeepStrings<typeof consoleEn>;
