import sys

from contract.cli.conformance import main

if __name__ == "__main__":
    sys.exit(main())
