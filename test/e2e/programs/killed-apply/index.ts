/**
 * The program of the killed-apply test (../../killed-apply.e2e.test.ts):
 * `badgeCount` badges (50 by default) on project acme/web, each its own
 * create, so that a `pulumi up` killed part way leaves some made, some
 * pending and some not started.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge } from "pulumi-platform";

const count = new pulumi.Config().getNumber("badgeCount") ?? 50;

for (let i = 1; i <= count; i++) {
  const name = `b${String(i).padStart(2, "0")}`;
  new Badge(name, { project: "acme/web", name, linkUrl: `https://ci.example.com/${name}`, imageUrl: `https://img.example.com/${name}.svg` });
}
