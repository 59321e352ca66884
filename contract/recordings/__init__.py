"""Readers of the golden vector files and the engine's recordings, as float32 bit patterns.

Neutral ground between the generators and :mod:`contract.golden`: ``generators.vectors`` labels each vector
file with what recorded it, ``contract.golden`` compares the corpus with the recordings, and both read them
through here (a generator never imports ``contract.golden``, which imports the generators). Nothing here
generates, compares or writes: :mod:`.vectorfile` reads one vector file (the kit's or an engine golden),
:mod:`.enginelive` the engine's live recording, :mod:`.recorded` every recorded vector under
``golden/recorded/`` and which of the kit's vectors each records.
"""
