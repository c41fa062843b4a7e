"""The command line of the toolporter package (``toolporter ...``, ``convert ...`` or ``python -m toolport ...``).

The wheel ships the command line itself beside this file, in ``_bin/``: ``convert``, the
plugin host that runs third-party plugins isolated, and the built-in formats as plugins in
``_bin/plugins/``. This entry point runs that ``convert`` with the same arguments, so it
behaves exactly as a ``convert`` installed with ``cargo xtask install``: same flags, output,
exit codes, and plugins found in the documented places.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import List, Optional

CONVERT = Path(__file__).resolve().parent / "_bin" / ("convert.exe" if os.name == "nt" else "convert")


def main(argv: Optional[List[str]] = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not CONVERT.is_file():
        print(
            f"error: this package was built without the command line ({CONVERT} is missing): build it with"
            " `pip install ./python` or `pip wheel ./python`, or run `cargo xtask wheel-binaries` before `maturin build`",
            file=sys.stderr,
        )
        sys.exit(2)
    command = [str(CONVERT), *args]
    if os.name == "posix" and argv is None:
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(CONVERT, command)
    sys.exit(subprocess.call(command))


if __name__ == "__main__":
    main()
