# Found through --include-dir or PYK_PATH, not beside the importing file.
TILE = 4
OFFSET = TILE * 2
