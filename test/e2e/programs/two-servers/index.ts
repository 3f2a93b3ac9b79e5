/**
 * The program of the two-servers test (../../two-servers.e2e.test.ts): a
 * platform team's self-managed instance (the stack's `platform:url` and
 * `platform:token`) and a hosted server over HTTPS (`hostedUrl`, the secret
 * `hostedToken`, and `hostedCaCertificate` or `hostedInsecure`), one badge
 * on each, from one program.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge, type ConnectionInput } from "pulumi-platform";

const config = new pulumi.Config();
const hosted: ConnectionInput = {
  url: config.require("hostedUrl"),
  token: config.requireSecret("hostedToken"),
  // The hosted server's certificate authority (a PEM file), or no verification at all.
  caCertificate: config.get("hostedCaCertificate"),
  insecure: config.getBoolean("hostedInsecure"),
};

new Badge("self-managed-coverage", {
  project: "acme/web",
  name: "coverage",
  linkUrl: "https://ci.internal.example.com/%{project_path}",
  imageUrl: "https://ci.internal.example.com/coverage.svg",
});

new Badge("hosted-coverage", {
  project: "acme/web",
  name: "coverage",
  linkUrl: "https://ci.example.com/%{project_path}",
  imageUrl: "https://ci.example.com/coverage.svg",
  connection: hosted,
});
