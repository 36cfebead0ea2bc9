/**
 * How a long-running subcommand waits: until SIGINT or SIGTERM, then it stops what it started. A
 * timer holds the process open meanwhile — signal handlers do not, and a standby controller
 * manager may have nothing else pending (the clock's timers do not hold it).
 */
export function untilSignalled(): Promise<void> {
  return new Promise<void>((done) => {
    const keepAlive = setInterval(() => {}, 2 ** 30);
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      clearInterval(keepAlive);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
