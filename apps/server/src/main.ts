import { ConfigError, loadConfig, type Config } from './config.ts';
import { startServer } from './server.ts';
import { startDemoSmtp, type DemoSmtp } from './services/demo-smtp.ts';

/**
 * `npm start` (DEMO_SMTP=1) without SMTP_URL: the demo's own SMTP receiver on 127.0.0.1, at
 * DEMO_SMTP_PORT or, when that one is taken, any free port; the mailer is pointed at it.
 */
async function demoSmtp(config: Config): Promise<DemoSmtp | null> {
  if (!config.demoSmtp) return null;
  const log = (line: string) => process.stdout.write(`[demo mail] ${line}\n`);
  return startDemoSmtp({ dataDir: config.dataDir, port: config.demoSmtp.port, log });
}

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
  const mail = await demoSmtp(config);
  if (mail) {
    config = { ...config, smtpUrl: mail.url };
    process.stdout.write(
      `[demo mail] SMTP server on ${mail.url}: every mail sent is written to ${mail.dir} (no SMTP_URL set)\n`,
    );
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
    server
      .stop()
      .then(() => mail?.close())
      .then(
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
