"""``python -m linkguard ARGS``: runs the linkguard executable with ARGS.

The process is replaced by the binary (``execv``): its exit status, signals
and output are linkguard's own.
"""

import sys

from ._binary import exec_binary

if __name__ == "__main__":
    sys.exit(exec_binary(sys.argv[1:]))
