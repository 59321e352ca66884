import sys

from contract.golden.cli import main

sys.exit(main())
