#!/usr/bin/env node
// The `costline` command. A file that exists before the build, so that npm links the command
// when it installs the workspace (it skips links to missing files, and dist/ is built later).
import "../dist/costline.mjs"
