/**
 * A key management service on loopback for the test stacks' secrets: the two
 * calls of AWS KMS's JSON protocol (`TrentService.Encrypt`, `.Decrypt`) that
 * Pulumi's cloud secrets manager makes, one `Decrypt` of the stack's data key
 * per command.
 *
 * Why: the passphrase secrets provider derives its key with 1,000,000 rounds
 * of PBKDF2 in every command, about a quarter of a second of CPU, a tenth of
 * each `pulumi preview` of a small program; the end-to-end suite runs some
 * seven hundred commands. The tests of the passphrase itself (the template's
 * pipeline, a user's project, a config the CLI cannot decrypt) keep it.
 *
 * The data key is sealed with AES-256-GCM under a key of this process, so
 * what Pulumi.<stack>.yaml keeps (`encryptedkey`) does not hold it. The
 * server is one per process, unref'd: it ends with the process that ran the
 * tests, and keeps none alive.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const KEY_ARN = "arn:aws:kms:us-east-1:000000000000:key/pulumi-platform-tests";
/** Pulumi's data key is 32 bytes, sent as base64: any request past this is not Pulumi's. */
const MAX_BODY = 4096;

interface TestKms {
  /** The `--secrets-provider` URL of a stack whose secrets this service keeps. */
  url: string;
  /** The environment the CLI needs to reach it (credentials AWS's SDK signs with; no instance metadata lookups). */
  env: Record<string, string>;
}

const running = Symbol.for("pulumi-platform.test-kms");
type WithKms = typeof globalThis & { [running]?: Promise<TestKms> };

function seal(key: Buffer, plaintext: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

function open(key: Buffer, blob: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, blob.subarray(0, 12));
  decipher.setAuthTag(blob.subarray(12, 28));
  return Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]);
}

function start(): Promise<TestKms> {
  const key = randomBytes(32);
  const server: Server = createServer((request, response) => {
    const answer = (status: number, body: object) => {
      response.writeHead(status, { "content-type": "application/x-amz-json-1.1" });
      response.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) request.destroy();
      else chunks.push(chunk);
    });
    request.on("end", () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { Plaintext?: string; CiphertextBlob?: string };
        const target = String(request.headers["x-amz-target"] ?? "");
        if (target === "TrentService.Encrypt" && typeof body.Plaintext === "string") {
          answer(200, { KeyId: KEY_ARN, CiphertextBlob: seal(key, Buffer.from(body.Plaintext, "base64")).toString("base64") });
        } else if (target === "TrentService.Decrypt" && typeof body.CiphertextBlob === "string") {
          answer(200, { KeyId: KEY_ARN, Plaintext: open(key, Buffer.from(body.CiphertextBlob, "base64")).toString("base64") });
        } else {
          answer(400, { __type: "UnsupportedOperationException", message: `${target} is not served here` });
        }
      } catch (error) {
        // A blob sealed by another process's key (a stack file kept from an earlier run) fails here, as KMS refuses a foreign key.
        answer(400, { __type: "InvalidCiphertextException", message: (error as Error).message });
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `awskms://alias/pulumi-platform-tests?region=us-east-1&endpoint=${encodeURIComponent(`http://127.0.0.1:${port}`)}`,
        env: { AWS_ACCESS_KEY_ID: "pulumi-platform-tests", AWS_SECRET_ACCESS_KEY: "pulumi-platform-tests", AWS_REGION: "us-east-1", AWS_EC2_METADATA_DISABLED: "true" },
      });
    });
  });
}

/** This process's service, started on first use. */
export function testKms(): Promise<TestKms> {
  const global = globalThis as WithKms;
  return (global[running] ??= start());
}
