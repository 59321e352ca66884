"""The golden corpus: the data the kit gives other repositories, and the commands that keep it honest.

``python -m contract.golden regenerate | check | report`` (see :mod:`contract.cli.golden`). The files
themselves are written by the generator modules listed in ``generators.GENERATORS``; this package runs
them, compares their output with the committed files and the recorded corpora, and draws the report.
"""
