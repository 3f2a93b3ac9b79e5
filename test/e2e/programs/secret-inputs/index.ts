/**
 * The program of the secret inputs test (../../secret-inputs.e2e.test.ts):
 * a project badge whose `linkUrl` the program gives as `pulumi.secret(...)`,
 * taking over (`adoptExisting`) a badge of the same name whose link holds
 * another secret. Neither value may show in the preview, the review note or
 * the state.
 */
import * as pulumi from "@pulumi/pulumi";
import { Badge } from "pulumi-platform";

new Badge("taken", {
  project: "acme/web",
  name: "scan",
  linkUrl: pulumi.secret("https://scan.example.com/?key=NEWSECRET-5678"),
  imageUrl: "https://scan.example.com/badge.svg",
  adoptExisting: true,
});
