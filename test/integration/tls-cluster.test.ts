// A real cluster with mutual TLS on every link (decision 0026), over each wire: six replica processes
// and a client that take the wire and the certificates from the generated configuration, commit
// transactions, and refuse a peer that does not speak TLS.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import { STREAM_PATH } from '../../net/index.ts';
import { metric, runTxn, scrape, startTestCluster, type TestCluster } from './cluster-harness.ts';

const WIRES = [
  { wire: 'tcp', basePort: 9610 },
  { wire: 'grpc', basePort: 9620 },
] as const;

async function until(cond: () => Promise<boolean>): Promise<void> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, 50));
}

for (const { wire, basePort } of WIRES) {
  void describe(`a cluster over ${wire} with TLS`, () => {
    let tc: TestCluster;

    before(async () => {
      tc = await startTestCluster(`tls-${wire}`, basePort, { transport: { wire, tls: true } });
    });

    after(async () => {
      await tc?.stop();
    });

    void it('writes TLS and the wire into the configuration and commits over it', async () => {
      assert.deepEqual(tc.config.transport, { wire, tls: true });
      const client = await tc.connect();
      for (let i = 0; i < 5; i++) {
        const r = await runTxn(client, async (tx) => {
          assert.equal(await tx.getString(`tls/${i}`), null);
          tx.put(`tls/${i}`, `v${i}`);
        });
        assert.equal(r.outcome, 'commit', JSON.stringify(r));
      }
      const check = await runTxn(client, async (tx) => {
        for (let i = 0; i < 5; i++) assert.equal(await tx.getString(`tls/${i}`), `v${i}`);
      });
      assert.equal(check.outcome, 'commit');
      assert.deepEqual(client.rejected, {});
    });

    void it('refuses a plaintext peer without disturbing the cluster', async () => {
      if (wire === 'tcp') {
        // Counted by the replica: plaintext bytes where a TLS ClientHello belongs.
        const before = metric(await scrape(tc.cluster, 0, 2), 'pesto_transport_rejected_total{reason="tls-handshake"}');
        const socket = net.connect({ host: '127.0.0.1', port: basePort + 2 });
        socket.on('error', () => undefined);
        socket.write(Buffer.from('not a TLS client hello, not a frame either'));
        await until(async () => metric(await scrape(tc.cluster, 0, 2), 'pesto_transport_rejected_total{reason="tls-handshake"}') > before);
        socket.destroy();
      } else {
        // grpc-js refuses it inside its TLS server (uncounted, decision 0026): the call fails.
        const client = new grpc.Client(`127.0.0.1:${basePort + 2}`, grpc.credentials.createInsecure());
        const call = client.makeBidiStreamRequest<Buffer, Buffer>(STREAM_PATH, (b) => b, (b) => b, new grpc.Metadata());
        const failed = new Promise<grpc.ServiceError>((resolve) => call.on('error', resolve));
        call.on('data', () => assert.fail('a plaintext call received data'));
        call.write(Buffer.from([0, 0, 0, 0]));
        assert.equal((await failed).code, grpc.status.UNAVAILABLE);
        client.close();
      }
      const client = await tc.connect();
      const r = await runTxn(client, (tx) => tx.put('tls/after', 'still fine'));
      assert.equal(r.outcome, 'commit');
    });
  });
}
