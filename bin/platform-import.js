#!/usr/bin/env node
// platform-import: writes a Pulumi program that takes over what the server holds (docs/import.md).
require("../dist/import/cli.js").run();
