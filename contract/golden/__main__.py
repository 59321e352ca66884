import sys

from contract.cli.golden import main

sys.exit(main())
