/**
 * A process at the other end of a loopback TCP connection that answers every message at once: the
 * control for the gateway-overhead figure (bench/pgbench.ts). The script called directly with one
 * round trip to this peer per statement pays what any wire protocol costs this process per statement
 * (a write, a sleep, a wakeup and a read) without any of the gateway's work; the gateway's figure
 * against it is what the gateway itself adds (docs/decisions/0020).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';

// The peer echoes every chunk back; it prints its port once listening and exits when its parent does.
// With a path (argv[1]) it listens on that Unix-domain socket instead, and prints 0.
const PEER = `const net = require('node:net');
const s = net.createServer((c) => { if (c.setNoDelay) c.setNoDelay(true); c.on('data', (d) => c.write(d)); c.on('error', () => {}); });
const path = process.argv[1];
const ready = () => process.stdout.write(String(path ? 0 : s.address().port) + '\\n');
if (path) s.listen(path, ready); else s.listen(0, '127.0.0.1', ready);
process.stdin.on('end', () => process.exit(0)); process.stdin.resume();`;

const MESSAGE = Buffer.alloc(64, 0x51);

export class EchoPeer {
  private constructor(
    private readonly child: ChildProcess,
    private readonly socket: Socket,
  ) {}

  /** `path`: a Unix-domain socket to talk over instead of loopback TCP (the gateway's `--wire unix` pairs). */
  static async start(path?: string): Promise<EchoPeer> {
    const child = spawn(process.execPath, ['-e', PEER, ...(path === undefined ? [] : [path])], { stdio: ['pipe', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`echo peer exited with ${code}`)));
      child.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim())));
    });
    const socket = path === undefined ? connect({ port, host: '127.0.0.1' }) : connect({ path });
    socket.setNoDelay(true);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    return new EchoPeer(child, socket);
  }

  /** One message there and its echo back. */
  roundTrip(): Promise<void> {
    return new Promise((resolve) => {
      let got = 0;
      const onData = (d: Buffer): void => {
        got += d.length;
        if (got < MESSAGE.length) return;
        this.socket.off('data', onData);
        resolve();
      };
      this.socket.on('data', onData);
      this.socket.write(MESSAGE);
    });
  }

  close(): void {
    this.socket.destroy();
    this.child.stdin!.end();
    this.child.kill();
  }
}
