#!/usr/bin/env node
/**
 * platform-emulator: the emulator's command line (dist/emulator/bin.js, whose
 * header lists the options), on a Node.js it runs on (./project-node.js).
 */
"use strict";
require("./project-node.js").onProjectNode("platform-emulator", __filename, () => require("../dist/emulator/bin.js"), "emulator");
