from pizarra.cli import run

run()
