import { parseArgs } from 'node:util';
import { startBuildingSystems, type BuildingSystemsOptions } from './controller.ts';

const HELP = `A simulated building's elevators and security doors behind the building-systems HTTP API
(docs/building-systems.md).

  node --import tsx apps/robot-sim/src/building-systems/cli.ts [options]

Options
  --bank ID:FLOORS    an elevator bank and the floor indexes it serves (1F = 1, B1 = 0), e.g. A:0,1,2;
                      repeat for more banks (default A:0,1,2)
  --cars N            cars per bank (default 2)
  --door ID           a security door; repeat for more (default door-1 and door-2)
  --host H            address to listen on (default 127.0.0.1)
  --port P            port (default 0: a free one)
  --faults on|off     occasional faults: a full car, doors that do not open, an emergency stop, an unlock
                      refused or late (default off)
  --token T           require Authorization: Bearer T
  --help              this text

Once listening it prints one line on stdout: {"url": ..., "banks": [...], "doors": [...]}.
SIGINT or SIGTERM stops it.`;

const { values: args } = parseArgs({
  options: {
    bank: { type: 'string', multiple: true },
    cars: { type: 'string', default: '2' },
    door: { type: 'string', multiple: true },
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    faults: { type: 'string', default: 'off' },
    token: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
  strict: true,
});

/** Occasional faults of `--faults on` (probabilities per ride or passage). */
const SOME_FAULTS = {
  elevator: { carFull: 0.05, doorTimeout: 0.02, emergencyStop: 0.02 },
  door: { refuse: 0.02, unlockTimeout: 0.02 },
} as const;

function fail(message: string): never {
  console.error(`building-systems: ${message}`);
  process.exit(1);
}

function parseBank(spec: string, cars: number): BuildingSystemsOptions['banks'][number] {
  const m = /^([A-Za-z0-9_.-]{1,64}):(-?\d+(?:,-?\d+)*)$/.exec(spec);
  if (!m) fail(`--bank ${spec}: expected ID:FLOORS, e.g. A:0,1,2`);
  return { id: m[1]!, floors: m[2]!.split(',').map(Number), cars };
}

async function main(): Promise<void> {
  if (args.help) {
    console.log(HELP);
    return;
  }
  const cars = Number(args.cars);
  if (!Number.isInteger(cars) || cars < 1 || cars > 16) fail('--cars must be an integer from 1 to 16');
  const port = Number(args.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail('--port must be a port number');
  if (args.faults !== 'on' && args.faults !== 'off') fail('--faults must be on or off');
  const banks = (args.bank ?? ['A:0,1,2']).map((b) => parseBank(b, cars));
  const doors = args.door ?? ['door-1', 'door-2'];
  const faults = args.faults === 'on';
  const systems = await startBuildingSystems(
    {
      banks,
      doors,
      ...(faults ? { elevatorFaults: { ...SOME_FAULTS.elevator }, doorFaults: { ...SOME_FAULTS.door } } : {}),
      ...(args.token ? { token: args.token } : {}),
    },
    { host: args.host, port },
  );
  const stop = () => {
    systems.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.stdout.write(`${JSON.stringify({ url: systems.url, banks, doors })}\n`);
}

main().catch((err: unknown) => fail((err as Error).message));
