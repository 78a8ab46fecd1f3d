import sys

from pizarra.cli import main

sys.exit(main())
