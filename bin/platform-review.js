#!/usr/bin/env node
// platform-review: a preview as the report a reviewer reads in a merge request (docs/review.md), on a Node.js it runs on.
"use strict";
require("./project-node.js").onProjectNode("platform-review", __filename, () => require("../dist/review/cli.js").run(), "review");
