"""Vendoring: copying the contract files into another repository, and checking such a copy.

A feature of the kit, not infrastructure (``contract/core/`` holds what every feature shares; nothing
there imports this package). Its modules: :mod:`~contract.vendoring.files` (which kit files are the
contract, their digests and versions), :mod:`~contract.vendoring.layout` (which files go where, and the
names refused), :mod:`~contract.vendoring.lock` (the lock file), :mod:`~contract.vendoring.vendored`
(``vendor`` and ``vendor --check``) and :mod:`~contract.vendoring.messages` (every text they print, from
``schema/vendor-messages.json``).
"""
