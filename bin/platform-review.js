#!/usr/bin/env node
// platform-review: a preview as the report a reviewer reads in a merge request (docs/review.md).
require("../dist/review/cli.js").run();
