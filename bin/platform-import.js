#!/usr/bin/env node
// platform-import: writes a Pulumi program that takes over what the server holds (docs/import.md), on a Node.js it runs on.
"use strict";
require("./project-node.js").onProjectNode("platform-import", __filename, () => require("../dist/import/cli.js").run());
