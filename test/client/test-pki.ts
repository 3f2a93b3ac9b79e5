/**
 * A private certificate authority for tests, made with the system's `openssl`
 * (present wherever Node.js is built or packaged, so no dependency is added
 * for it): a server certificate for 127.0.0.1 and a client certificate, each
 * signed by its own CA, as a self-managed server behind an internal CA has.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Pem {
  /** The PEM file's path. */
  path: string;
  text: string;
}

export interface TestPki {
  dir: string;
  /** The CA that signed the server's certificate. */
  ca: Pem;
  serverCert: Pem;
  serverKey: Pem;
  /** The CA whose client certificates the server accepts. */
  clientCa: Pem;
  clientCert: Pem;
  clientKey: Pem;
  /** A CA that signed nothing here: trusting it is as good as trusting nothing. */
  otherCa: Pem;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync("openssl", args, { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
}

function pem(dir: string, name: string): Pem {
  const path = join(dir, name);
  return { path, text: readFileSync(path, "utf8") };
}

/** Elliptic-curve keys: quick to make on a busy machine. */
const KEY = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

function makeCa(dir: string, name: string): void {
  openssl(dir, "req", "-x509", ...KEY, "-keyout", `${name}.key`, "-out", `${name}.pem`, "-days", "2", "-subj", `/CN=${name}`,
    "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
}

function signedBy(dir: string, ca: string, name: string, extensions: string): void {
  openssl(dir, "req", ...KEY, "-keyout", `${name}.key`, "-out", `${name}.csr`, "-subj", `/CN=${name}`);
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, "x509", "-req", "-in", `${name}.csr`, "-CA", `${ca}.pem`, "-CAkey", `${ca}.key`, "-CAcreateserial",
    "-out", `${name}.pem`, "-days", "2", "-extfile", `${name}.ext`);
}

export function makeTestPki(): TestPki {
  const dir = mkdtempSync(join(tmpdir(), "platform-pki-"));
  makeCa(dir, "server-ca");
  makeCa(dir, "client-ca");
  makeCa(dir, "other-ca");
  signedBy(dir, "server-ca", "server", "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n");
  signedBy(dir, "client-ca", "client", "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n");
  return {
    dir,
    ca: pem(dir, "server-ca.pem"),
    serverCert: pem(dir, "server.pem"),
    serverKey: pem(dir, "server.key"),
    clientCa: pem(dir, "client-ca.pem"),
    clientCert: pem(dir, "client.pem"),
    clientKey: pem(dir, "client.key"),
    otherCa: pem(dir, "other-ca.pem"),
  };
}
