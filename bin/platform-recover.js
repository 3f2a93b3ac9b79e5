#!/usr/bin/env node
// platform-recover: after a killed `pulumi up`, settles the creates left pending (docs/own-repository.md).
require("../dist/recover.js").run();
