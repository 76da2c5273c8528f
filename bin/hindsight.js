#!/usr/bin/env node
"use strict";
const path = require("node:path");
const fs = require("node:fs");
const entry = path.join(__dirname, "..", "dist", "cli.js");
if (!fs.existsSync(entry)) {
  console.error("hindsight: dist/cli.js is missing. Run `npm run build` first.");
  process.exit(2);
}
require(entry);
