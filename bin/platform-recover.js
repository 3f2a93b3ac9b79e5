#!/usr/bin/env node
// platform-recover: after a killed `pulumi up`, settles the creates left pending (docs/own-repository.md), on a Node.js it runs on.
"use strict";
require("./project-node.js").onProjectNode("platform-recover", __filename, () => require("../dist/recover.js").run());
