import sys

from contract.cli import main

sys.exit(main())
