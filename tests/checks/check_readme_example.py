#!/usr/bin/env python3
"""The C example of README.md (marked <!-- example: PATH -->) is exactly the file PATH, which the
`readme_example_c` test compiles and runs and the Debian package test builds with pkg-config."""
import re
import sys

readme, root = sys.argv[1], sys.argv[2]
blocks = re.findall(r"<!-- example: (\S+) -->\n```c\n(.*?)```", open(readme).read(), flags=re.S)
if not blocks:
    sys.exit("README.md: no C example marked <!-- example: PATH -->")
bad = [path for path, code in blocks if open(root + "/" + path).read() != code]
if bad:
    sys.exit("README.md shows a different text than %s" % ", ".join(bad))
print("ok: README.md shows %s as it is" % ", ".join(p for p, _ in blocks))
