// Preloaded into the code-server processes by `npm run bench -- [--depth] --profile DIR`
// (NODE_OPTIONS=--require out/bench/cpuProfileHook.js): in the extension host only, V8's sampling
// profiler runs from its start for HELPDESK_PROFILE_MS and the profile is written to
// HELPDESK_PROFILE_DIR/extension-host-PID.cpuprofile (open it in Chrome DevTools or VS Code).
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isExtensionHost, preloadInExtensionHost } from './extensionHostProcess';

preloadInExtensionHost(__filename);
const dir = process.env.HELPDESK_PROFILE_DIR;
if (dir && isExtensionHost) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 200 });
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    session.post('Profiler.stop', (error, result) => {
      if (!error && result) writeFileSync(join(dir, `extension-host-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  setTimeout(write, Number(process.env.HELPDESK_PROFILE_MS || 60000)).unref();
  process.on('exit', write);
  // A session ends with SIGTERM to its processes (codeServerHost.ts), which ends a process without
  // its 'exit': the profile is written first (an in-process session answers at once), then the
  // signal is taken as it would have been.
  const onTerm = () => {
    write();
    process.off('SIGTERM', onTerm);
    if (process.listenerCount('SIGTERM') === 0) process.kill(process.pid, 'SIGTERM');
  };
  process.on('SIGTERM', onTerm);
}
