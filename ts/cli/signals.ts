/**
 * How a long-running subcommand waits: until SIGINT or SIGTERM (true), or until `ended` settles
 * first (false), then it stops what it started. A timer holds the process open meanwhile — signal
 * handlers do not, and a standby controller manager may have nothing else pending (the clock's
 * timers do not hold it).
 */
export function untilSignalled(ended: Promise<void> = new Promise<void>(() => {})): Promise<boolean> {
  return new Promise<boolean>((done) => {
    const keepAlive = setInterval(() => {}, 2 ** 30);
    const finish = (signalled: boolean) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      clearInterval(keepAlive);
      done(signalled);
    };
    const onSignal = () => finish(true);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    void ended.then(() => finish(false));
  });
}
