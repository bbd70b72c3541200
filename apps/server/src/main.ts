import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './server.ts';

/** `npm start` / `npm run serve`: read the environment, start, stop cleanly on SIGTERM or SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + '\n');
      process.exit(2);
    }
    throw err;
  }
  const server = await startServer(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'stopping');
    const timer = setTimeout(() => {
      server.app.log.error('shutdown took longer than 20 s; exiting');
      process.exit(1);
    }, 20_000);
    timer.unref();
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        server.app.log.error({ err }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
