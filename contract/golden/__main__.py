import sys

from contract.cli.golden import main

if __name__ == "__main__":
    sys.exit(main())
